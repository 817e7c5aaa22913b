/// Why the site could not be written. Nothing in the output folder has changed when this is thrown.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder or file concerned, as shown to the user.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): error: \(message)" }
}
