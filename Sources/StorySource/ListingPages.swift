/// The pages after the first of a paged listing (`stories`, `links`), asked with the `Total`
/// header as a hint, never as a promise: no more pages than it announces, nor than the listing
/// can hold when the request names its entries (`by_uuids`), and those asked a few at a time,
/// stopping after the first round with a short page or a page that brings no new entry. A
/// `Total` that lies, however large, so costs at most one round of requests, and nothing is
/// allocated from it.
enum ListingPages {
    /// Pages asked at once: as many as the rate limits let run together for 100-entry pages.
    static let round = 6

    /// The entries of pages 2 and on, in page order, after a first page of `first` entries.
    static func rest<Entry: Sendable>(
        after first: [Entry], total: Int?, pageSize: Int, capacity: Int? = nil,
        key: (Entry) -> String, page: @escaping @Sendable (Int) async throws -> [Entry]
    ) async throws -> [Entry] {
        var lastPage = pages(holding: max(0, total ?? 0), pageSize: pageSize)
        if let capacity { lastPage = min(lastPage, pages(holding: capacity, pageSize: pageSize)) }
        var seen = Set(first.map(key))
        var entries: [Entry] = []
        var next = 2
        var ended = first.count < pageSize
        while !ended, next <= lastPage {
            let numbers = next...min(next + round - 1, lastPage)
            let pages = try await withThrowingTaskGroup(of: (Int, [Entry]).self) { group in
                for number in numbers { group.addTask { (number, try await page(number)) } }
                return try await group.reduce(into: [Int: [Entry]]()) { $0[$1.0] = $1.1 }
            }
            for number in numbers {
                let received = pages[number] ?? []
                let new = received.filter { seen.insert(key($0)).inserted }
                entries += received
                if received.count < pageSize || new.isEmpty { ended = true }
            }
            next = numbers.upperBound + 1
        }
        return entries
    }

    /// How many pages of `pageSize` hold `count` entries, without overflowing for any count.
    private static func pages(holding count: Int, pageSize: Int) -> Int {
        count / pageSize + (count % pageSize == 0 ? 0 : 1)
    }
}
