import Foundation
import Testing
@testable import Preview

extension PreviewTests {
    @Suite("Rebuilding one at a time")
    struct RebuildCoordinatorTests {
        @Test("requests during a rebuild make exactly one more, never two at once")
        func serialises() async throws {
            let runs = Shared(0)
            let running = Shared(0)
            let overlapped = Shared(false)
            let gate = Shared(false)
            let coordinator = RebuildCoordinator {
                running.update { $0 += 1 }
                if running.value > 1 { overlapped.update { $0 = true } }
                runs.update { $0 += 1 }
                while !gate.value { try? await Task.sleep(for: .milliseconds(5)) }
                running.update { $0 -= 1 }
            }
            let first = Task { await coordinator.request() }
            #expect(await eventually { runs.value == 1 })
            for _ in 0..<5 { await coordinator.request() }
            gate.update { $0 = true }
            await first.value
            #expect(runs.value == 2)
            #expect(!overlapped.value)
            await coordinator.request()
            #expect(runs.value == 3)
        }
    }
}
