import Foundation
import LinkCheck

// check-benchmark: checks a generated 10,000-page folder (about 220,000 internal links, a few
// thousand planted broken ones) and reports pages/s and peak memory; then, when `linkchecker`
// is installed, runs it on a 1,000-page site from the same generator and compares the broken
// links found and the per-page speed. Run with `swift run -c release check-benchmark`.

/// The process's peak resident memory (VmHWM) in MB.
func peakMemoryMB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return .nan }
    return kilobytes / 1024
}

func format(_ value: Double, _ digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
}

/// Checks `site` in `folder` and stops the benchmark unless exactly the planted links are found.
func checkAndVerify(_ site: SyntheticSite, in folder: URL) async throws -> (report: CheckReport, seconds: Double) {
    let start = ContinuousClock.now
    let report = try await HTMLFolderCheck().check(folder: folder)
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    guard report.findings.count == site.plantedCount, report.warnings.isEmpty, report.pages == site.pageCount else {
        print(ReportFormatter.text(CheckReport(findings: Array(report.findings.prefix(20)))))
        fatalError("expected exactly \(site.plantedCount) broken links in \(site.pageCount) pages, found \(ReportFormatter.totals(report))")
    }
    return (report, seconds)
}

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("storysite-check-benchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
defer { try? FileManager.default.removeItem(at: scratch) }

let large = SyntheticSite(pageCount: 10_000)
let small = SyntheticSite(pageCount: 1_000)
let largeFolder = scratch.appendingPathComponent("site-10000")
let smallFolder = scratch.appendingPathComponent("site-1000")
let generation = ContinuousClock.now
try FileManager.default.createDirectory(at: largeFolder, withIntermediateDirectories: true)
try FileManager.default.createDirectory(at: smallFolder, withIntermediateDirectories: true)
try large.write(to: largeFolder)
try small.write(to: smallFolder)
print("Generated \(large.pageCount) + \(small.pageCount) pages in \(format((ContinuousClock.now - generation) / .seconds(1))) s")

let smallRun = try await checkAndVerify(small, in: smallFolder)
print("storysite check, \(small.pageCount) pages: \(format(smallRun.seconds, 3)) s, peak memory so far \(format(peakMemoryMB(), 1)) MB")

var largeRuns: [(report: CheckReport, seconds: Double)] = []
for _ in 0..<3 { largeRuns.append(try await checkAndVerify(large, in: largeFolder)) }
let seconds = largeRuns.map(\.seconds).sorted()[1]
let largeReport = largeRuns[0].report
print("storysite check, \(large.pageCount) pages (median of 3 runs: \(largeRuns.map { format($0.seconds, 3) }.joined(separator: ", ")) s):")
print("  \(ReportFormatter.totals(largeReport)) (\(large.plantedCount) planted)")
print("  \(format(seconds, 3)) s, \(format(Double(large.pageCount) / seconds, 0)) pages/s, \(format(Double(largeReport.links) / seconds, 0)) links/s")
print("  peak memory (VmHWM) \(format(peakMemoryMB(), 1)) MB on \(ProcessInfo.processInfo.activeProcessorCount) cores")

guard let linkchecker = Linkchecker() else {
    print("linkchecker is not installed (apt-get install linkchecker): skipping the comparison")
    exit(0)
}
let baseline = try linkchecker.check(site: smallFolder, scratch: scratch)
/// The distinct URLs (relative to the site, percent-encoded) of the missing files storysite found.
let ourMissingFiles = Set(smallRun.report.findings.filter { !$0.reason.hasPrefix("no id") }.compactMap { finding in
    URL(string: finding.target, relativeTo: smallFolder.appendingPathComponent(finding.source))?.absoluteURL.absoluteString
        .dropFirst(smallFolder.absoluteString.count + (smallFolder.absoluteString.hasSuffix("/") ? 0 : 1))
}.map(String.init))
let ourMissingAnchors = smallRun.report.findings.count { $0.reason.hasPrefix("no id") }
let perPageOurs = seconds / Double(large.pageCount)
let perPageTheirs = baseline.seconds / Double(small.pageCount)
print("linkchecker, \(small.pageCount) pages (anchor checking on): \(format(baseline.seconds, 1)) s, \(format(Double(small.pageCount) / baseline.seconds, 1)) pages/s")
print("  storysite: \(smallRun.report.broken.count) broken links: \(smallRun.report.broken.count - ourMissingAnchors) to "
    + "\(ourMissingFiles.count) distinct missing files, \(ourMissingAnchors) to missing anchors")
print("  linkchecker: \(baseline.invalidURLs.count) distinct missing files, \(baseline.missingAnchors) missing anchors "
    + "(it reports each URL once, and does not check anchors on folder URLs)")
print("  the same missing files: \(ourMissingFiles == baseline.invalidURLs ? "yes" : "NO") "
    + "(only storysite: \(ourMissingFiles.subtracting(baseline.invalidURLs).sorted().prefix(3)), "
    + "only linkchecker: \(baseline.invalidURLs.subtracting(ourMissingFiles).sorted().prefix(3)))")
print("  per page: storysite \(format(perPageOurs * 1e6, 1)) µs, linkchecker \(format(perPageTheirs * 1e3, 1)) ms: \(format(perPageTheirs / perPageOurs, 0))x")
