import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file mapped into memory read-only, unmapped when the last reference to it goes: a kept file
/// is read in place from it, its large parts used where they are rather than copied into memory
/// of their own (memory a process touches first costs it a page fault and a clearing per page).
///
/// The file must not be changed in place while it is mapped (a kept file is only ever replaced,
/// by a rename, which leaves the mapped one as it was).
public final class MappedFile: @unchecked Sendable {
    // Safe to share: the bytes are never written, and stay mapped until deinit.
    /// The file's bytes, valid as long as this object lives.
    public let bytes: UnsafeRawBufferPointer

    /// The file at `path` mapped; nil when it cannot be opened or mapped.
    public init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let start = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), start != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: start, count: size)
    }

    deinit {
        if let start = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: start), bytes.count) }
    }

    /// The bytes in `range` as `Data` that keeps the file mapped while it lives, without a copy.
    public func data(_ range: Range<Int>) -> Data {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "a range of the mapped file")
        guard !range.isEmpty, let start = bytes.baseAddress else { return Data() }
        return Data(
            bytesNoCopy: UnsafeMutableRawPointer(mutating: start + range.lowerBound), count: range.count,
            deallocator: .custom { [self] _, _ in withExtendedLifetime(self) {} })
    }

    /// Whether `part` lies within the file's bytes: a part a reader of them gave.
    public func contains(_ part: UnsafeRawBufferPointer) -> Bool {
        guard let start = bytes.baseAddress else { return part.isEmpty }
        guard let partStart = part.baseAddress else { return part.isEmpty }
        return partStart >= start && partStart + part.count <= start + bytes.count
    }
}
