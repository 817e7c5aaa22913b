import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock a build holds on its output folder from reading the last build's records to writing
/// its own, so that two builds (or a `build` and a rebuild of `serve`) never mix their files.
///
/// It is an advisory `flock` on `.<output>.storysite-lock` beside the output folder (inside, it
/// would move with the folder a staging build replaces). The file names the holder (its process
/// id and command) for the message of a build that finds the lock taken, and is removed when the
/// lock is released. The kernel releases the lock when its process ends, however it ends, so a
/// lock file left by a killed build is simply taken over.
public final class OutputLock: Sendable {
    private let descriptor: Int32
    private let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Removes the lock file, then releases the lock: a build that opened the file meanwhile
    /// finds it removed once it has the lock, and takes a new one (see ``acquire(for:displayPath:command:)``).
    deinit {
        unlink(path)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Takes the lock of `output` (shown as `displayPath`), or throws naming the process that
    /// holds it. `command` is what the lock file says this process is (`storysite build`).
    public static func acquire(
        for output: URL, displayPath: String, command: String = OutputLock.currentCommand
    ) throws(OutputError) -> OutputLock {
        let file = output.standardizedFileURL.resolvingSymlinksInPath().storysiteSibling("lock").path
        do {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: displayPath, message: "could not make the folder of the lock file '\(file)': \(error.localizedDescription)")
        }
        while true {
            let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw OutputError(path: displayPath, message: "could not open the lock file '\(file)': \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let failure = String(cString: strerror(errno))
                let holder = errno == EWOULDBLOCK ? Self.holder(in: descriptor) : nil
                close(descriptor)
                guard let holder else {
                    throw OutputError(path: displayPath, message: "could not lock the output folder with '\(file)': \(failure)")
                }
                throw OutputError(
                    path: displayPath,
                    message: "another storysite (\(holder)) is building into this folder; wait for it to finish or stop it, then build again")
            }
            // The holder before may have removed the file between our open and our lock.
            var opened = stat(), named = stat()
            guard fstat(descriptor, &opened) == 0, stat(file, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev else {
                close(descriptor)
                continue
            }
            let record = Array("pid \(getpid()), \(command)\n".utf8)
            ftruncate(descriptor, 0)
            _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            return OutputLock(descriptor: descriptor, path: file)
        }
    }

    /// This process as the lock file names it: the executable's name and its command (`storysite
    /// serve`), never its other arguments, which can hold a token.
    public static var currentCommand: String {
        let arguments = CommandLine.arguments
        let name = URL(fileURLWithPath: arguments.first ?? "storysite").lastPathComponent
        guard arguments.count > 1, !arguments[1].hasPrefix("-") else { return name }
        return name + " " + arguments[1]
    }

    /// What the lock file open as `descriptor` says of its holder (`pid 4242, storysite build`).
    /// A holder writes that just after it takes the lock, so an empty file is read again for a
    /// moment (a busy machine can take milliseconds between the two) before the holder is
    /// called a process that has just started.
    private static func holder(in descriptor: Int32) -> String {
        for _ in 0..<50 {
            if let line = holderLine(in: descriptor) { return line }
            usleep(10_000)
        }
        return "a process that has just started"
    }

    /// The first line of the lock file without control characters; nil while it is empty.
    private static func holderLine(in descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        let text = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        let line = String(String.UnicodeScalarView((text.split(separator: "\n").first ?? "").unicodeScalars.filter {
            $0.value >= 0x20 && $0.value != 0x7F
        }))
        return line.isEmpty ? nil : line
    }
}
