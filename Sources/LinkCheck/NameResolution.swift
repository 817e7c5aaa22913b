import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether host names resolve at all on this machine, asked before an external check sends
/// anything: without a network (or a resolver), every request would fail the same way after
/// its timeouts and retries, and every link would read as broken.
///
/// Resolution works when, within a short deadline, any of a few of the links' own hosts or
/// `example.com` resolves. `example.com` is reserved for documentation (RFC 2606) and kept
/// resolvable by IANA, so a machine with working DNS resolves it even when every link points
/// at a host that does not exist; then those links are broken, as they should be.
public enum NameResolution {
    /// The name that resolves wherever DNS works.
    static let controlHost = "example.com"
    /// How many of the links' hosts are tried besides it.
    static let probedHosts = 8

    /// Whether a name among `hosts` (the first few) or ``controlHost`` resolves within `deadline`.
    /// Each lookup runs on a thread of its own (`getaddrinfo` cannot be cancelled); lookups still
    /// running at the deadline are left to finish unread.
    public static func works(probing hosts: [String], deadline: Duration = .seconds(3)) async -> Bool {
        let names = Array(Set([controlHost] + hosts.prefix(probedHosts).map { $0.lowercased() }).filter { !$0.isEmpty })
        let race = ResolutionRace(count: names.count)
        let timer = Task {
            try? await Task.sleep(for: deadline)
            race.timeOut()
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            race.start(continuation)
            for name in names {
                Thread.detachNewThread { race.report(resolves(name)) }
            }
        }
    }

    /// Whether `getaddrinfo` finds an address for `host` (an IP literal counts, bracketed or not).
    public static func resolves(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), nil, &hints, &result)
        if let result { freeaddrinfo(result) }
        return status == 0
    }
}

/// The first answer among several lookups: true as soon as one resolves, false when all have
/// failed or the deadline passed.
private final class ResolutionRace: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private var continuation: CheckedContinuation<Bool, Never>?

    init(count: Int) {
        remaining = count
    }

    func start(_ continuation: CheckedContinuation<Bool, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func report(_ resolved: Bool) {
        let allFailed = lock.withLock {
            remaining -= 1
            return remaining == 0
        }
        if resolved { finish(true) } else if allFailed { finish(false) }
    }

    func timeOut() {
        finish(false)
    }

    private func finish(_ answer: Bool) {
        let waiting = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: answer)
    }
}

extension LimitedHTTPClient {
    /// Whether host names resolve here; see ``NameResolution``.
    public func resolvesHostNames(probing hosts: [String]) async -> Bool {
        await NameResolution.works(probing: hosts)
    }
}
