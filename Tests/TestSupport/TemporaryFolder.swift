import Foundation

/// A folder under the system temp directory that a test fills with fixture files.
/// It is removed when the value is deinitialised.
public final class TemporaryFolder: @unchecked Sendable {
    /// The folder's location.
    public let url: URL

    /// Creates an empty, uniquely named folder.
    public init(prefix: String = "storysite-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The URL of `relativePath` inside the folder.
    public func path(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath)
    }

    /// Writes `contents` to `relativePath`, creating intermediate folders.
    @discardableResult
    public func write(_ relativePath: String, _ contents: String) throws -> URL {
        let file = path(relativePath)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
        return file
    }

    /// Reads the file at `relativePath` as UTF-8 text.
    public func read(_ relativePath: String) throws -> String {
        try String(contentsOf: path(relativePath), encoding: .utf8)
    }

    /// Whether a file or folder exists at `relativePath`.
    public func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: path(relativePath).path)
    }
}
