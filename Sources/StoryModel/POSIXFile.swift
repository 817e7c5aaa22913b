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

    /// Puts a file at `url` atomically: `write` writes it (given the descriptor and path of a
    /// file of its own beside `url`), which is then renamed over `url`, so that a reader finds the
    /// old file or the whole new one, never part of one. `durably` has the new file on disk before
    /// it takes the place (as `Data.write(to:options: .atomic)` does), so that a crash cannot leave
    /// it empty where a file was.
    public static func replace(_ url: URL, durably: Bool = false, writing write: (_ descriptor: Int32, _ path: String) throws -> Void) throws {
        let path = url.path
        let temporary = path + ".writing-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("open", temporary) }
        do {
            try write(descriptor, temporary)
            if durably, fsync(descriptor) != 0 { throw failure("fsync", temporary) }
            guard close(descriptor) == 0 else { throw failure("close", temporary) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let renameFailure = failure("rename", temporary)
            unlink(temporary)
            throw renameFailure
        }
    }

    /// The error of the POSIX call `call` on `path` that just failed, with `errno`'s text.
    public static func failure(_ call: String, _ path: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "\(call) \(path): \(String(cString: strerror(errno)))",
        ])
    }
}
