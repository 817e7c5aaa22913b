import Foundation
import Preview

/// The one way anything in `serve` asks for a rebuild: a save, a webhook, a new `cv`, the Visual
/// Editor. Each asks the ``ServeBuilder`` for its work and the coordinator for a rebuild, so
/// rebuilds run one at a time and a request made during one makes exactly one more; a rebuild
/// that failed on the API is tried again after the builder's backoff delay.
struct ServeRefresh: Sendable {
    let builder: ServeBuilder
    let coordinator: RebuildCoordinator

    init(builder: ServeBuilder) {
        self.builder = builder
        coordinator = RebuildCoordinator { await builder.rebuild() }
    }

    /// Fetches the stories `ids` from the API again and rebuilds incrementally, as a save does
    /// locally: a story the API answers replaces the one held (moved, renamed, new in a
    /// listing), one it no longer knows leaves the site. Returns once the rebuild ran, or once
    /// it is queued behind the one running. For webhooks and the Visual Editor's `change` and
    /// `published` events.
    func refreshStories(ids: [Int]) async {
        await builder.ask(ServeBuilder.PendingWork(ids: Set(ids)))
        await run()
    }

    /// Fetches the stories changed since the newest one held, and rebuilds (after a new `cv`).
    func refreshChanged() async {
        await builder.ask(ServeBuilder.PendingWork(changed: true))
        await run()
    }

    /// Reads the whole space and rebuilds (the first build from the API).
    func crawl() async {
        await builder.ask(ServeBuilder.PendingWork(crawl: true))
        await run()
    }

    /// Rebuilds after a save of a template, a story file or `storysite.json` that changed `saved`.
    func rebuild(saved: FolderChanges) async {
        await builder.ask(ServeBuilder.PendingWork(save: true, saved: saved))
        await run()
    }

    private func run() async {
        await coordinator.request()
        guard let delay = await builder.takeRetryDelay() else { return }
        Task {
            try? await Task.sleep(for: delay)
            await run()
        }
    }
}
