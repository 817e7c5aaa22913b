/// Why a folder could not be checked at all.
public enum LinkCheckError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path does not exist or is not a folder.
    case notAFolder(String)
    /// A folder inside could not be listed.
    case unreadableFolder(String, reason: String)
    /// A file could not be read (reported as a finding on that page, not thrown).
    case unreadableFile(String, reason: String)

    public var description: String {
        switch self {
        case .notAFolder(let path): return "\(path): not a folder; give the folder of HTML to check"
        case .unreadableFolder(let path, let reason): return "\(path): cannot list the folder (\(reason))"
        case .unreadableFile(let path, let reason): return "\(path): cannot read the file (\(reason))"
        }
    }
}
