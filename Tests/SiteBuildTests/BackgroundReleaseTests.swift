import Foundation
import Testing
@testable import SiteBuild

extension SiteBuildTests {
    @Suite("Background release")
    struct BackgroundReleaseTests {
        /// Signals, when freed, whether it was freed on the thread that made it.
        final class Tracked: @unchecked Sendable {
            let owner = pthread_self()
            let freed: DispatchSemaphore
            nonisolated(unsafe) static var freedOnOwner: Bool?

            init(freed: DispatchSemaphore) { self.freed = freed }

            deinit {
                Self.freedOnOwner = pthread_equal(owner, pthread_self()) != 0
                freed.signal()
            }
        }

        @Test("a value handed over is freed, on another thread than the caller's")
        func freesElsewhere() throws {
            let freed = DispatchSemaphore(value: 0)
            var value: (tracked: Tracked, payload: [Int])? = (Tracked(freed: freed), Array(0..<1000))
            BackgroundRelease.release(value.take()!)
            #expect(freed.wait(timeout: .now() + 10) == .success)
            #expect(Tracked.freedOnOwner == false)
        }
    }
}
