import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `storysite serve` on a benchmark workspace: the time from saving a story to the `reload`
/// event that makes open pages load again, read from the live-reload event stream as a page's
/// script reads it. The rebuild's files are in place when the event is sent, so this is what an
/// editor waits for, the watcher's quiet period of 100 ms included.
enum ServeReload {
    /// Starts `command` (a `storysite serve --port 0 …`) in `folder` and waits until it serves;
    /// then, `runs` times, calls `edit` with the run's number and times the save to the next
    /// reload event. Stops the server. Throws when it does not start, or a rebuild fails.
    static func measure(_ command: [String], in folder: URL, runs: Int, edit: (Int) throws -> Void) throws -> [Double] {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: command[0])
        server.arguments = Array(command.dropFirst())
        server.currentDirectoryURL = folder
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.interrupt()
            server.waitUntilExit()
        }
        let port = try servingPort(output.fileHandleForReading)
        let events = try EventStream(port: port)
        try events.read(until: "event: hello")
        let clock = ContinuousClock()
        var seconds: [Double] = []
        for run in 1...runs {
            try edit(run)
            let saved = clock.now
            try events.read(until: "event: reload")
            let (whole, attoseconds) = (clock.now - saved).components
            seconds.append(Double(whole) + Double(attoseconds) / 1e18)
        }
        return seconds
    }

    /// The port of the `Serving Output/ at http://127.0.0.1:<port>/` line serve prints once its
    /// first build is done.
    private static func servingPort(_ output: FileHandle) throws -> Int {
        var printed = ""
        while true {
            let chunk = output.availableData
            guard !chunk.isEmpty else { throw BenchmarkError("storysite serve stopped before serving:\n\(printed)") }
            printed += String(decoding: chunk, as: UTF8.self)
            if let range = printed.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) {
                let address = printed[range].dropFirst("http://127.0.0.1:".count).dropLast()
                if let port = Int(address) { return port }
            }
        }
    }

    /// `GET /_storysite/events` on a socket of its own, read as it arrives.
    private final class EventStream {
        private let socket: Int32
        private var received = ""

        init(port: Int) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard socket >= 0, connected == 0 else { throw BenchmarkError("cannot connect to storysite serve on port \(port)") }
            // A rebuild that takes longer than this is a failure of its own.
            var timeout = timeval(tv_sec: 120, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let request = "GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n"
            guard request.utf8CString.withUnsafeBufferPointer({ send(socket, $0.baseAddress, $0.count - 1, 0) }) > 0 else {
                throw BenchmarkError("cannot ask storysite serve for its events")
            }
        }

        deinit {
            close(socket)
        }

        /// Reads until `marker` arrives, and drops what came before it and the marker itself;
        /// throws on an `error` event (a failed rebuild) or when the stream ends.
        func read(until marker: String) throws {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                if let range = received.range(of: marker) {
                    received.removeSubrange(..<range.upperBound)
                    return
                }
                if let range = received.range(of: "event: error") {
                    throw BenchmarkError("storysite serve reported problems: \(received[range.lowerBound...])")
                }
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { throw BenchmarkError("the event stream ended before '\(marker)'") }
                received += String(decoding: buffer[..<count], as: UTF8.self)
            }
        }
    }
}
