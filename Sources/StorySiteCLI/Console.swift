import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the CLI writes: standard output for results, standard error for progress and problems.
/// A seam so tests can capture what a user would see.
public protocol Console: Sendable {
    func out(_ text: String)
    func err(_ text: String)
    /// Whether standard error is an interactive terminal (progress bars instead of lines).
    var isTerminal: Bool { get }
}

/// The process's real standard output and error.
public struct StandardConsole: Console {
    public init() {}

    public func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    public var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
