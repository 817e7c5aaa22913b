import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fingerprint of a folder tree from `stat` alone: every entry's relative path, type, size,
/// modification and change times and inode, in sorted order. Any edit, rename, addition or
/// removal changes it, without reading a file.
public enum FolderFingerprint {
    /// The fingerprint of `folder`; nil when it cannot be read. `skipRootDotfiles` leaves out
    /// entries at the top whose names start with a dot (the build cache, `.git`).
    public static func of(_ folder: URL, skipRootDotfiles: Bool = false) -> String? {
        var fingerprint = Fingerprint()
        guard walk(folder.standardizedFileURL.path, relative: "", skipDotfiles: skipRootDotfiles, into: &fingerprint) else {
            return nil
        }
        return fingerprint.hex
    }

    private static func walk(_ path: String, relative: String, skipDotfiles: Bool, into fingerprint: inout Fingerprint) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        for name in names.sorted() where !(skipDotfiles && name.hasPrefix(".")) {
            let child = path + "/" + name
            let childRelative = relative + "/" + name
            var info = stat()
            guard lstat(child, &info) == 0 else { return false }
            fingerprint.combine(childRelative)
            fingerprint.combine(Int64(info.st_mode))
            fingerprint.combine(Int64(info.st_size))
            fingerprint.combine(Int64(info.st_ino))
            fingerprint.combine(info.modifiedNanoseconds)
            fingerprint.combine(info.changedNanoseconds)
            if (info.st_mode & S_IFMT) == S_IFDIR,
               !walk(child, relative: childRelative, skipDotfiles: false, into: &fingerprint) {
                return false
            }
        }
        return true
    }
}
