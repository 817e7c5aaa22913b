import Foundation

/// A value made only when a template first reads it, and kept for later reads: data that is
/// costly to prepare and often left unread (a listed story's whole content, when a card shows
/// only its name). Reading it twice makes it once; from several threads, once too.
public final class MustacheLazyValue: @unchecked Sendable {
    private let lock = NSLock()
    private var make: (@Sendable () -> MustacheValue)?
    private var made: MustacheValue?

    /// A value that `make` makes when it is first read. `make` must not return another lazy value.
    public init(_ make: @escaping @Sendable () -> MustacheValue) {
        self.make = make
    }

    /// The value, made now if this is the first read.
    public var value: MustacheValue {
        lock.withLock {
            if let made { return made }
            let value = make!()
            made = value
            make = nil
            return value
        }
    }
}

extension MustacheValue {
    /// The value itself, or what a lazy value makes.
    var resolved: MustacheValue {
        if case .lazy(let lazy) = self { return lazy.value }
        return self
    }
}
