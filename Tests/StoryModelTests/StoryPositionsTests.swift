import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Story positions")
    struct StoryPositionsTests {
        /// `count` distinct UUIDs in Storyblok's form, the same on every run.
        static func uuids(_ count: Int, seed: UInt64) -> [String] {
            var state = seed
            func next() -> UInt64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state
            }
            return (0..<count).map { _ in
                let digits = (0..<2).map { _ in String(next(), radix: 16) }.map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
                let characters = Array(digits)
                return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
            }
        }

        @Test("every UUID placed is found at its position after the table grew many times; one never placed has none")
        func manyUUIDs() {
            let placed = Self.uuids(20_000, seed: 1)
            let others = Self.uuids(1_000, seed: 2)
            var positions = StoryPositions()
            for (position, uuid) in placed.enumerated() { positions[StoryKey(uuid)] = position }
            #expect(positions.count == placed.count)
            #expect(placed.enumerated().allSatisfy { positions[StoryKey($0.element)] == $0.offset })
            #expect(others.allSatisfy { positions[StoryKey($0)] == nil })
        }

        @Test("UUIDs one digit apart, and identifiers in no UUID form, are told apart as their strings are")
        func closeAndOtherIdentifiers() {
            let identifiers = [
                "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001",
                "10000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000010",
                "3a526768-1d22-447e-9ddd-f4158a035edd", "3A526768-1D22-447E-9DDD-F4158A035EDD",
                "1", "", "home", "00000000000000000000000000000000",
            ]
            var positions = StoryPositions(minimumCapacity: 2)
            for (position, identifier) in identifiers.enumerated() { positions[StoryKey(identifier)] = position }
            #expect(positions.count == identifiers.count)
            for (position, identifier) in identifiers.enumerated() {
                #expect(positions[StoryKey(identifier)] == position, "\(identifier)")
            }
            #expect(positions[StoryKey("00000000-0000-0000-0000-000000000002")] == nil)
            #expect(positions[StoryKey("2")] == nil)
        }

        @Test("placing a story again moves it, and it is still counted once; reserving room keeps what is held")
        func placeAgain() {
            let uuids = Self.uuids(100, seed: 3)
            var positions = StoryPositions()
            for (position, uuid) in uuids.enumerated() { positions[StoryKey(uuid)] = position }
            positions[StoryKey(uuids[7])] = 1_000
            positions[StoryKey("home")] = 5
            positions[StoryKey("home")] = 6
            positions.reserveCapacity(10_000)
            #expect(positions.count == uuids.count + 1)
            #expect(positions[StoryKey(uuids[7])] == 1_000)
            #expect(positions[StoryKey(uuids[8])] == 8)
            #expect(positions[StoryKey("home")] == 6)
        }
    }
}
