import Foundation

/// Watches folders (and every folder under them) and single files, and reports saves as one
/// change per burst: a change is reported once nothing more happened for `quietPeriod`, or at the
/// latest one second after the burst began. Editors' temporary files (dotfiles, `~` backups, swap
/// files) are ignored. A watched file may be missing: creating it is a change, like deleting it.
///
/// Uses inotify on Linux, and polling where inotify is unavailable or out of watches (or when
/// asked). Changes arrive on ``changes``; one that is not taken yet absorbs later ones.
public final class FolderWatcher: Sendable {
    /// How changes are noticed.
    public enum Mode: Sendable {
        /// inotify where available, else polling.
        case automatic
        /// Polling only.
        case polling(interval: Duration)
    }

    /// One element per burst of changes.
    public let changes: AsyncStream<Void>
    /// Whether the watcher fell back to (or was asked for) polling.
    public let isPolling: Bool

    private let state: WatchState

    /// Starts watching `folders` (those that exist) and `files` (whose folders exist) on a thread
    /// of its own. Only a file's own name is watched in its folder, never the folder's other
    /// files or sub-folders.
    public init(folders: [URL], files: [URL] = [], mode: Mode = .automatic, quietPeriod: Duration = .milliseconds(100)) {
        let (changes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.changes = changes
        let source: any ChangeSource
        switch mode {
        case .polling(let interval):
            source = PollingSource(roots: folders, files: files, interval: interval)
        case .automatic:
            #if canImport(Glibc)
            source = InotifySource(roots: folders, files: files)
                ?? PollingSource(roots: folders, files: files, interval: .milliseconds(300))
            #else
            source = PollingSource(roots: folders, files: files, interval: .milliseconds(300))
            #endif
        }
        isPolling = source is PollingSource
        let state = WatchState(continuation: continuation)
        self.state = state
        let thread = Thread {
            state.run(source, quietPeriod: quietPeriod)
            source.close()
            state.finished.signal()
        }
        thread.name = "storysite folder watcher"
        thread.start()
    }

    deinit {
        stop()
    }

    /// Stops watching and ends ``changes``; returns once the watching thread has ended.
    public func stop() {
        state.stop()
    }
}

/// What the watching thread shares with its ``FolderWatcher``.
private final class WatchState: @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    private let continuation: AsyncStream<Void>.Continuation
    private let lock = NSLock()
    private var stopped = false

    init(continuation: AsyncStream<Void>.Continuation) {
        self.continuation = continuation
    }

    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        finished.wait()
        continuation.finish()
    }

    func run(_ source: any ChangeSource, quietPeriod: Duration) {
        let clock = ContinuousClock()
        var burst: (began: ContinuousClock.Instant, last: ContinuousClock.Instant)?
        while !lock.withLock({ stopped }) {
            let untilQuiet = burst.map { Int((($0.last + quietPeriod - clock.now).seconds * 1000).rounded(.up)) } ?? 100
            if source.waitForChange(milliseconds: max(1, min(untilQuiet, 100))) {
                burst = (burst?.began ?? clock.now, clock.now)
            }
            if let current = burst, clock.now - current.last >= quietPeriod || clock.now - current.began >= .seconds(1) {
                burst = nil
                continuation.yield()
            }
        }
    }
}
