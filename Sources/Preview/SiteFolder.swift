import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The served folder: finds the file a ``SitePath`` names, following symlinks only while their
/// real path stays under the folder's real path.
struct SiteFolder: Sendable {
    /// What a path leads to.
    enum Lookup: Equatable {
        /// A regular file (its real location).
        case file(URL)
        /// A folder asked for without the trailing slash.
        case folderWithoutSlash
        /// Nothing servable.
        case notFound
        /// Something whose real path is outside the folder.
        case outside
    }

    let root: URL

    /// Looks `path` up; a folder serves its `index.html`.
    func lookup(_ path: SitePath) -> Lookup {
        // The real root is resolved on each lookup: a rebuild swaps the folder in place.
        guard let realRoot = Self.realPath(root.path) else { return .notFound }
        var candidate = realRoot
        for segment in path.segments { candidate += "/" + segment }
        switch classify(candidate, under: realRoot) {
        case .outside: return .outside
        case .missing: return .notFound
        case .file(let real): return .file(URL(fileURLWithPath: real))
        case .folder(let real):
            guard path.endsWithSlash || path.segments.isEmpty else { return .folderWithoutSlash }
            switch classify(real + "/index.html", under: realRoot) {
            case .file(let index): return .file(URL(fileURLWithPath: index))
            case .outside: return .outside
            case .missing, .folder: return .notFound
            }
        }
    }

    /// The real location of `name` at the top of the folder if it is a regular file inside it
    /// (for `404.html`).
    func topLevelFile(_ name: String) -> URL? {
        guard let realRoot = Self.realPath(root.path),
              case .file(let real) = classify(realRoot + "/" + name, under: realRoot) else { return nil }
        return URL(fileURLWithPath: real)
    }

    private enum Kind {
        case file(String), folder(String), missing, outside
    }

    private func classify(_ path: String, under realRoot: String) -> Kind {
        guard let real = Self.realPath(path) else { return .missing }
        guard real == realRoot || real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") else { return .outside }
        var status = stat()
        guard stat(real, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file(real)
        case S_IFDIR: return .folder(real)
        default: return .missing
        }
    }

    /// `path` with every symlink, `.` and `..` resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
