#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one folder's entries with `readdir`, for the listing and the removal of output folders
/// of tens of thousands of entries.
enum FolderEntries {
    /// Calls `visit` with each entry of the folder at `path` except `.` and `..`: the open
    /// folder's descriptor (for `fstatat`, `unlinkat`), the entry's name and its `d_type`. Stops
    /// as soon as `visit` returns false. False when the folder cannot be opened or read to its end
    /// (`errno` says why) or `visit` stopped. With `folderInfo`, first puts there what `fstat`
    /// says of the open folder, before any entry is read.
    static func forEach(
        in path: String, folderInfo: UnsafeMutablePointer<stat>? = nil,
        _ visit: (_ folder: Int32, _ name: UnsafePointer<CChar>, _ type: Int32) -> Bool
    ) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer {
            let failure = errno
            closedir(directory)
            errno = failure
        }
        let descriptor = dirfd(directory)
        if let folderInfo, fstat(descriptor, folderInfo) != 0 { return false }
        let dot = CChar(UInt8(ascii: "."))
        errno = 0
        while let record = readdir(directory) {
            let type = Int32(record.pointee.d_type)
            // Read in place: a record is only as long as its name, so copying the whole
            // fixed-size `d_name` field can run past the end of the directory buffer.
            let goesOn = withUnsafePointer(to: &record.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: 1) { name in
                    if name[0] == dot && (name[1] == 0 || (name[1] == dot && name[2] == 0)) { return true }
                    return visit(descriptor, name, type)
                }
            }
            if !goesOn { return false }
            errno = 0
        }
        return errno == 0
    }
}
