import Foundation
import StorySource

/// Asks the space for its cache version (`cv`, from `spaces/me`) every `interval` and, when it
/// moved past the snapshot's, has the changed stories fetched and the site rebuilt. A failed
/// look shows over the open pages, with the time of the next.
struct ServePoller: Sendable {
    let space: SpaceSnapshot
    let refresh: ServeRefresh
    let interval: Duration

    /// Polls until the task is cancelled.
    func run() async {
        while (try? await Task.sleep(for: interval)) != nil {
            guard let known = space.version else { continue }  // the first crawl has not begun
            do {
                let current = try await space.currentVersion()
                await refresh.builder.apiAnswered()
                if current != known { await refresh.refreshChanged() }
            } catch {
                await refresh.builder.apiFailed(error, space: space, nextTry: interval)
            }
        }
    }
}
