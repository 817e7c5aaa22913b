import Foundation
import LinkCheck
import Testing
import TestSupport

/// The LinkCheck module's suite: the content-level check, the HTML folder check and its edge
/// cases, external checks and the report formats.
@Suite("LinkCheck")
struct LinkCheckTests {}

/// Builds fixture sites and the findings expected from them.
enum Fixture {
    /// A page whose body lines start at line 3 (the wrapper's tags are on lines 1, 2 and after the body).
    static func page(_ bodyLines: String..., head: String = "") -> String {
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Page</title>\(head)</head><body>\n"
            + bodyLines.joined(separator: "\n") + "\n</body></html>\n"
    }

    /// Writes `files` into a new temporary folder and checks it.
    static func check(
        _ files: [String: String], options: HTMLFolderCheck.Options = .init(),
        externalCheck: ExternalLinkCheck = ExternalLinkCheck()
    ) async throws -> CheckReport {
        let folder = try TemporaryFolder()
        for (path, contents) in files { try folder.write(path, contents) }
        return try await HTMLFolderCheck(options: options, externalCheck: externalCheck).check(folder: folder.url)
    }

    static func broken(_ source: String, line: Int, _ target: String, _ reason: String, times: Int = 1) -> Finding {
        Finding(severity: .broken, source: source, location: .line(line), target: target, reason: reason, occurrences: times)
    }

    static func warning(_ source: String, line: Int, _ target: String, _ reason: String, times: Int = 1) -> Finding {
        Finding(severity: .warning, source: source, location: .line(line), target: target, reason: reason, occurrences: times)
    }
}
