import Foundation
import SiteBuild

/// Tells the user how a command is getting on: a bar redrawn in place on a terminal, plain lines
/// otherwise (CI logs), nothing under `--quiet`.
final class Progress: BuildProgress, @unchecked Sendable {
    enum Style { case bar, lines, silent }

    private let console: any Console
    private let style: Style
    private let lock = NSLock()
    private var phase = ""
    private var total = 0
    private var done = 0
    private var lastDrawn = -1
    private var started = ContinuousClock.now

    init(console: any Console, quiet: Bool) {
        self.console = console
        style = quiet ? .silent : (console.isTerminal ? .bar : .lines)
    }

    /// Starts a phase of `total` steps (0 when unknown).
    func begin(_ phase: String, total: Int) {
        lock.withLock {
            self.phase = phase
            self.total = total
            started = .now
            done = 0
            lastDrawn = -1
            if style == .bar { draw() }
        }
    }

    /// Records `count` more steps done.
    func advance(by count: Int) {
        lock.withLock {
            done += count
            if style == .bar { draw() }
        }
    }

    /// Ends the phase with a line saying what it did and how long it took.
    func finish(_ summary: String) {
        lock.withLock {
            let line = summary + " (\(Int(((ContinuousClock.now - started).seconds * 1000).rounded())) ms)"
            switch style {
            case .bar: console.err("\r\u{1B}[2K" + line + "\n")
            case .lines: console.err(line + "\n")
            case .silent: break
            }
        }
    }

    private func draw() {
        let width = 30
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let filled = Int(fraction * Double(width))
        guard filled != lastDrawn || total == 0 else { return }
        lastDrawn = filled
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let count = total > 0 ? " \(done)/\(total)" : (done > 0 ? " \(done)" : "")
        console.err("\r\u{1B}[2K\(phase) \(bar)\(count)")
    }
}
