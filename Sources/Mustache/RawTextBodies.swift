import Foundation

/// The raw text of a program's sections, compiled on its own when a lambda first renders it
/// unchanged, and kept for the next call: compiling every section's text in advance would make
/// compile time grow with the square of the nesting depth. Shared by the renders of all threads.
final class RawTextBodies: @unchecked Sendable {
    // Safe to share: `bodies` is only read and written under `lock`.
    private let lock = NSLock()
    private var bodies: [Int32: (Program, NodeRange)] = [:]

    /// The compiled raw text of the section at `tag`, compiled by `compile` on first use.
    func body(forTag tag: Int32, compile: () throws -> (Program, NodeRange)) rethrows -> (Program, NodeRange) {
        if let body = lock.withLock({ bodies[tag] }) { return body }
        let body = try compile()
        lock.withLock { bodies[tag] = body }
        return body
    }
}
