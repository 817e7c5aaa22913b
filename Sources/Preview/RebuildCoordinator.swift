/// Runs rebuilds one at a time: a rebuild requested while one runs makes exactly one more run
/// after it, however many requests came meanwhile, so the last save is always built.
public actor RebuildCoordinator {
    private let rebuild: @Sendable () async -> Void
    private var isRunning = false
    private var isPending = false

    /// A coordinator running `rebuild`.
    public init(rebuild: @escaping @Sendable () async -> Void) {
        self.rebuild = rebuild
    }

    /// Asks for a rebuild. When none runs, this runs it (and any requested meanwhile) and
    /// returns once they are done; when one runs, it notes that another is needed and returns.
    public func request() async {
        guard !isRunning else {
            isPending = true
            return
        }
        isRunning = true
        repeat {
            isPending = false
            await rebuild()
        } while isPending
        isRunning = false
    }
}
