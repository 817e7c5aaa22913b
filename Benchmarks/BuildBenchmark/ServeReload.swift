import Foundation
import TestSupport

/// `storysite serve` on a benchmark workspace: the time from saving a story to the `reload`
/// event that makes open pages load again, read from the live-reload event stream as a page's
/// script reads it. The rebuild's files are in place when the event is sent, so this is what an
/// editor waits for, the watcher's quiet period of 100 ms included.
enum ServeReload {
    /// Starts `command` (a `storysite serve --port 0 …`) in `folder` and waits until it serves;
    /// then, `runs` times, calls `edit` with the run's number and times the save to the next
    /// reload event. Stops the server. Throws when it does not start, or a rebuild fails.
    static func measure(_ command: [String], in folder: URL, runs: Int, edit: (Int) throws -> Void) async throws -> [Double] {
        let serve = try RunningServe(command, in: folder)
        defer { serve.stop() }
        guard let port = URL(string: try await serve.url())?.port else { throw BenchmarkError("no port in: \(serve.output)") }
        let events = try LoopbackConnection(port: port)
        events.send("GET /_storysite/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        guard await events.read(timeout: 60, until: { $0.contains("event: hello") }) else {
            throw BenchmarkError("no event stream from storysite serve: \(serve.output)")
        }
        let clock = ContinuousClock()
        var seconds: [Double] = []
        for run in 1...runs {
            try edit(run)
            let saved = clock.now
            // The stream keeps everything it received: the run's reload is its run-th.
            let reloaded = await events.read(timeout: 120) { $0.components(separatedBy: "event: reload").count > run || $0.contains("event: error") }
            guard reloaded, !events.text.contains("event: error") else {
                throw BenchmarkError("no reload after the save of run \(run): \(events.text.suffix(500))")
            }
            let (whole, attoseconds) = (clock.now - saved).components
            seconds.append(Double(whole) + Double(attoseconds) / 1e18)
        }
        return seconds
    }
}
