import Foundation

/// Locates the real test data kept beside the repository in `../shared/`
/// (the Mustache spec suite, real Storyblok content). It is never copied into the repository;
/// tests that need it are skipped with a clear message where it is absent.
public enum SharedFixtures {
    /// The repository's root folder, derived from this file's location.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root

    /// `../shared/` next to the repository.
    public static let sharedFolder: URL = repositoryRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared", isDirectory: true)

    /// The URL of `relativePath` inside `../shared/`, or nil when it does not exist.
    public static func url(_ relativePath: String) -> URL? {
        let url = sharedFolder.appendingPathComponent(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Whether `../shared/<relativePath>` exists; use with `.enabled(if:)`.
    public static func available(_ relativePath: String) -> Bool {
        url(relativePath) != nil
    }
}
