// Load on the preview server: a generated site of 200 pages served by StaticSiteHandler (with
// live reload, as `storysite serve` runs it), hit by wrk over 50 connections for long enough to
// make well over 10,000 requests across pages, folders, a stylesheet and an image.
//
//   swift run -c release preview-benchmark [seconds]      (default 5; needs wrk: apt install wrk)
//
// Prints requests, requests/s, latency and errors (socket errors and non-2xx/3xx answers); exits
// non-zero when there were errors or fewer than 10,000 requests.
//
// Measured (2 shared cores, wrk on the same machine, release build): 208,421 requests in 5 s,
// 41,660 requests/s, latency p50 1.13 ms, p99 2.60 ms, 0 errors.
import Foundation
import HTTPServer
import Preview

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5
let pageCount = 200

guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
    print("preview-benchmark: skipped, wrk is not installed (apt-get install wrk)")
    exit(0)
}

// A small site: pages of about 6 KB in folders, a stylesheet, an image and a 404 page.
let site = FileManager.default.temporaryDirectory.appendingPathComponent("storysite-preview-benchmark-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: site) }
func write(_ path: String, _ text: String) throws {
    let file = site.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
}
let paragraph = String(repeating: "Stockpot keeps counting when the network does not. ", count: 100)
for index in 0..<pageCount {
    let path = index == 0 ? "index.html" : "pages/page-\(index)/index.html"
    try write(path, "<!doctype html><html><head><title>Page \(index)</title><link rel=stylesheet href=/assets/style.css></head><body><h1>Page \(index)</h1><p>\(paragraph)</p></body></html>\n")
}
try write("assets/style.css", String(repeating: "body { margin: 0 auto; max-width: 60rem; }\n", count: 40))
try write("assets/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><circle cx=\"5\" cy=\"5\" r=\"4\"/></svg>")
try write("404.html", "<html><body>missing</body></html>")

let targets = ["/", "/pages/page-7/", "/pages/page-123/", "/assets/style.css", "/assets/logo.svg", "/pages/page-42/index.html"]
let script = site.appendingPathComponent("paths.lua")
try Data("""
    local paths = {\(targets.map { "\"\($0)\"" }.joined(separator: ", "))}
    local counter = 0
    request = function()
      counter = counter + 1
      return wrk.format("GET", paths[(counter % #paths) + 1])
    end
    """.utf8).write(to: script)

let liveReload = LiveReload()
let handler = StaticSiteHandler(root: site, liveReload: liveReload)
let server = HTTPServer(host: "127.0.0.1", port: 0) { await handler.respond(to: $0) }
let port = try server.start()

let process = Process()
process.executableURL = URL(fileURLWithPath: wrk)
process.arguments = ["-t2", "-c50", "-d\(seconds)s", "--latency", "-s", script.path, "http://127.0.0.1:\(port)/"]
let pipe = Pipe()
process.standardOutput = pipe
try process.run()
let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
process.waitUntilExit()
server.stop()

/// The first number after `label` in wrk's report (0 when absent).
func number(after label: String, in text: String) -> Double {
    guard let range = text.range(of: label) else { return 0 }
    let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
    return Double(digits) ?? 0
}
let summaryLine = report.split(separator: "\n").first { $0.contains(" requests in ") } ?? ""
let requests = Int(summaryLine.split(separator: " ").first ?? "") ?? 0
let perSecond = number(after: "Requests/sec:", in: report)
let nonSuccess = Int(number(after: "Non-2xx or 3xx responses:", in: report))
let socketErrors = ["connect", "read", "write", "timeout"].map { Int(number(after: " \($0) ", in: report.components(separatedBy: "Socket errors:").dropFirst().first ?? "")) }.reduce(0, +)
print(report, terminator: "")
print("preview-benchmark: \(requests) requests over 50 connections in \(seconds) s: \(Int(perSecond)) requests/s, \(nonSuccess) non-2xx/3xx, \(socketErrors) socket errors")
exit(process.terminationStatus == 0 && nonSuccess == 0 && socketErrors == 0 && requests >= 10_000 ? 0 : 1)
