import Foundation

/// A tiny HTTP server on 127.0.0.1 (Python's `http.server`, on a free port) that answers
/// `/ok` 200, `/no-head` 405 to HEAD and 200 to GET, `/moved` 301 to `/ok`, `/busy` 429 and
/// anything else 404, logging each request line to standard error. It exits when stopped or
/// when the test process's pipe to it closes.
final class LocalHTTPServer: @unchecked Sendable {
    /// The python3 executable on `PATH`, if any.
    static let python3: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":")
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    private static let script = """
        import http.server, os, sys, threading
        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self):
                sys.stderr.write(self.command + " " + self.path + "\\n"); sys.stderr.flush()
                codes = {"/ok": 200, "/no-head": 405 if self.command == "HEAD" else 200, "/moved": 301, "/busy": 429}
                self.send_response(codes.get(self.path, 404))
                if self.path == "/moved": self.send_header("Location", "/ok")
                self.send_header("Content-Length", "0"); self.end_headers()
            do_HEAD = answer
            do_GET = answer
            def log_message(self, *arguments): pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        server.serve_forever()
        """

    let port: Int
    private let process = Process()
    private let input = Pipe()
    private let log = Pipe()

    init() throws {
        let output = Pipe()
        process.executableURL = Self.python3
        process.arguments = ["-c", Self.script]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = log
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the local HTTP server did not start"])
        }
        self.port = port
    }

    /// Stops the server, waits for it to exit and returns the request lines (`HEAD /ok`) it
    /// received, sorted.
    func stop() -> [String] {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").map(String.init).sorted()
    }
}
