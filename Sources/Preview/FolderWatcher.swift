import Foundation

/// Watches folders (and every folder under them) and single files, and reports saves as one
/// ``FolderChanges`` per burst, naming every file the burst changed: a burst is reported once
/// nothing more happened for `quietPeriod`, or at the latest one second after it began. Editors'
/// temporary files (dotfiles, `~` backups, swap files) are ignored. A watched file may be missing:
/// creating it is a change, like deleting it.
///
/// Uses inotify on Linux, and polling where inotify is unavailable or out of watches (or when
/// asked). Changes arrive on ``changes``, for one consumer at a time; changes not taken yet absorb
/// later ones, so that the next element taken names everything changed since the last.
public final class FolderWatcher: Sendable {
    /// How changes are noticed.
    public enum Mode: Sendable {
        /// inotify where available, else polling.
        case automatic
        /// Polling only.
        case polling(interval: Duration)
    }

    /// One element per burst of changes, or per bursts that came while none was taken; it ends
    /// when the watcher stops or the consuming task is cancelled.
    public let changes: AsyncStream<FolderChanges>
    /// Whether the watcher fell back to (or was asked for) polling.
    public let isPolling: Bool

    private let state: WatchState

    /// Starts watching `folders` (those that exist) and `files` (whose folders exist) on a thread
    /// of its own. Only a file's own name is watched in its folder, never the folder's other
    /// files or sub-folders.
    public init(folders: [URL], files: [URL] = [], mode: Mode = .automatic, quietPeriod: Duration = .milliseconds(100)) {
        let state = WatchState()
        self.state = state
        changes = AsyncStream(unfolding: { await state.nextChanges() }, onCancel: { state.endWaiting() })
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

/// What the watching thread shares with its ``FolderWatcher`` and its stream of changes.
private final class WatchState: @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false
    /// The changes of the bursts reported while no consumer waited, merged.
    private var untaken = FolderChanges.empty
    /// The consumer waiting for the next burst.
    private var waiting: CheckedContinuation<FolderChanges?, Never>?

    /// Ends the stream and the watching thread; returns once the thread has ended.
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        endWaiting()
        finished.wait()
    }

    /// The changes not taken yet, else the next burst's once it is reported; nil once stopped,
    /// or when the consumer's task is cancelled.
    func nextChanges() async -> FolderChanges? {
        await withCheckedContinuation { continuation in
            lock.withLock {
                precondition(waiting == nil, "FolderWatcher.changes has one consumer at a time")
                if !untaken.isEmpty {
                    continuation.resume(returning: untaken)
                    untaken = .empty
                } else if stopped || Task.isCancelled {
                    continuation.resume(returning: nil)
                } else {
                    waiting = continuation
                }
            }
        }
    }

    /// Ends the wait of the consumer waiting, if any, with nil.
    func endWaiting() {
        lock.withLock {
            waiting?.resume(returning: nil)
            waiting = nil
        }
    }

    func run(_ source: any ChangeSource, quietPeriod: Duration) {
        let clock = ContinuousClock()
        var burst: (began: ContinuousClock.Instant, last: ContinuousClock.Instant, changes: FolderChanges)?
        while !lock.withLock({ stopped }) {
            let untilQuiet = burst.map { Int((($0.last + quietPeriod - clock.now).seconds * 1000).rounded(.up)) } ?? 100
            let noticed = source.waitForChange(milliseconds: max(1, min(untilQuiet, 100)))
            if !noticed.isEmpty {
                var changes = burst?.changes ?? .empty
                changes.merge(noticed)
                burst = (burst?.began ?? clock.now, clock.now, changes)
            }
            if let current = burst, clock.now - current.last >= quietPeriod || clock.now - current.began >= .seconds(1) {
                burst = nil
                report(current.changes)
            }
        }
    }

    /// Hands `changes` to the consumer waiting, or merges them into those not taken yet.
    private func report(_ changes: FolderChanges) {
        lock.withLock {
            if let waiting {
                waiting.resume(returning: changes)
                self.waiting = nil
            } else {
                untaken.merge(changes)
            }
        }
    }
}
