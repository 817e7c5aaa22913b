import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the site's files with plain POSIX calls, creating each folder once.
///
/// Foundation's `Data.write(to:)` syncs every file to disk, which made writing 10,000 pages take
/// seconds of journal commits. A build needs no per-file sync: the staging folder swap, not the
/// disk cache, is what keeps a build all-or-nothing (as for every static site generator).
struct SiteFileWriter {
    private var createdFolders: Set<String> = []

    /// Writes `data` to `url`, replacing any file there, and creates its folder if needed.
    mutating func write(_ data: Data, to url: URL) throws {
        try createFolder(url.deletingLastPathComponent())
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.failure("open", url) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure("write", url)
                }
                offset += written
            }
        }
    }

    /// Creates `folder` and its parents, once per folder per writer.
    mutating func createFolder(_ folder: URL) throws {
        guard !createdFolders.contains(folder.path) else { return }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        createdFolders.insert(folder.path)
    }

    private static func failure(_ call: String, _ url: URL) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: "\(call) \(url.path): \(String(cString: strerror(errno)))",
        ])
    }
}
