import Foundation

/// The POSIX calls a build writes its files with: every byte of a buffer written to a file, and
/// each failure an error that names the call, the path and `errno`'s text.
public enum POSIXFile {
    /// Writes all of `bytes` to `descriptor`, going on after an interrupted write; `path` is the
    /// file's, for the error.
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("write", path)
            }
            offset += written
        }
    }

    /// The error of the POSIX call `call` on `path` that just failed, with `errno`'s text.
    public static func failure(_ call: String, _ path: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "\(call) \(path): \(String(cString: strerror(errno)))",
        ])
    }
}
