import Foundation
import Testing
import TestSupport
@testable import SiteOutput

extension SiteOutputTests {
    @Suite("The output folder's lock")
    struct OutputLockTests {
        /// Runs `body` with an output folder whose lock file is locked as a holder locks it, before
        /// it writes who it is, and the locked file's descriptor.
        private static func withFreshlyLocked(_ body: (URL, Int32) throws -> Void) throws {
            let workspace = try TemporaryFolder()
            let output = workspace.path("Output")
            let descriptor = open(output.storysiteSibling("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            try #require(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
            defer { close(descriptor) }
            try body(output, descriptor)
        }

        private static func refusal(_ output: URL) -> String? {
            do throws(OutputError) {
                _ = try OutputLock.acquire(for: output, displayPath: "Output", command: "storysite build")
                return nil
            } catch {
                return error.message
            }
        }

        @Test("a holder that has locked but not yet written who it is is named once it has")
        func holderWritesLate() throws {
            try Self.withFreshlyLocked { output, descriptor in
                // A thread of its own: the refusal waits by sleeping, and would starve a task of the
                // cooperative pool that the test beside this one keeps busy too.
                let written = DispatchSemaphore(value: 0)
                Thread {
                    usleep(100_000)
                    _ = Array("pid 4242, storysite serve\n".utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
                    written.signal()
                }.start()
                let message = Self.refusal(output)
                written.wait()
                #expect(
                    message?.hasPrefix("another storysite (pid 4242, storysite serve) is building into this folder") == true,
                    "\(message ?? "locked")")
            }
        }

        @Test("a holder that never says who it is is called a process that has just started")
        func holderSaysNothing() throws {
            try Self.withFreshlyLocked { output, _ in
                #expect(Self.refusal(output)?.hasPrefix("another storysite (a process that has just started) is building") == true)
            }
        }
    }
}
