/// Runs `transform` over `items` with at most `limit` running at once, and returns the results
/// in the items' order whatever order they finish in.
func concurrentMap<Item: Sendable, Result: Sendable>(
    _ items: [Item], limit: Int, _ transform: @escaping @Sendable (Item) async -> Result
) async -> [Result] {
    await withTaskGroup(of: (Int, Result).self) { group in
        var results = [Result?](repeating: nil, count: items.count)
        var next = 0
        func startNext() {
            guard next < items.count else { return }
            let position = next
            let item = items[position]
            group.addTask { (position, await transform(item)) }
            next += 1
        }
        for _ in 0..<max(1, limit) { startNext() }
        while let (position, result) = await group.next() {
            results[position] = result
            startNext()
        }
        return results.map { $0! }
    }
}
