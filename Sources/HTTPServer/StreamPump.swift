import CMicroHTTPD

/// Moves a streaming body from its `AsyncThrowingStream` to MHD: a task buffers the chunks, and
/// MHD's content reader takes them, suspending the connection while nothing is buffered (the
/// next chunk resumes it). Guarded by the ``ServerCore`` lock.
final class StreamPump: @unchecked Sendable {
    private let core: ServerCore
    private let connection: ConnectionHandle
    private var buffer: [UInt8] = []
    private var offset = 0
    private var finished = false
    private var failed = false
    private var task: Task<Void, Never>?

    init(core: ServerCore, connection: ConnectionHandle) {
        self.core = core
        self.connection = connection
    }

    /// Starts reading `chunks`.
    func start(_ chunks: AsyncThrowingStream<[UInt8], any Error>) {
        let task = Task(priority: .high) { [self] in
            do {
                for try await chunk in chunks where !chunk.isEmpty {
                    deliver { buffer.append(contentsOf: chunk) }
                }
                deliver { finished = true }
            } catch {
                deliver { failed = true }
            }
        }
        core.withLock { self.task = task }
    }

    /// Fills `destination` for MHD: the byte count, 0 after suspending the connection until
    /// more arrives, or an end marker. Called on MHD's thread.
    func read(into destination: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        core.withLock {
            if offset < buffer.count {
                let count = min(max, buffer.count - offset)
                buffer.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(destination).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
                }
                offset += count
                if offset == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    offset = 0
                }
                return count
            }
            if failed || core.isStopping { return storysite_mhd_end_with_error }
            if finished { return storysite_mhd_end_of_stream }
            return core.suspendLocked(connection) ? 0 : storysite_mhd_end_with_error
        }
    }

    /// Stops reading: MHD is done with the response (sent, or the client went away).
    func close() {
        let task = core.withLock { () -> Task<Void, Never>? in
            failed = true
            defer { self.task = nil }
            return self.task
        }
        task?.cancel()
    }

    /// Applies `change` to the buffer state and wakes the connection if the reader is waiting.
    private func deliver(_ change: () -> Void) {
        let wake = core.withLock { () -> Bool in
            guard !failed else { return false }
            change()
            return core.takeSuspendedLocked(connection)
        }
        if wake { core.resume(connection) }
    }
}
