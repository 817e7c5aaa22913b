import Testing
@testable import StoryCrawl

extension StoryCrawlTests {
    @Suite("Position lists")
    struct PositionListsTests {
        @Test("each story's list holds its positions in the order appended, whatever the order of the stories")
        func inOrderAppended() {
            var builder = PositionLists.Builder()
            for (position, story) in [(7, 2), (3, 0), (9, 2), (1, 2), (4, 0)] { builder.append(position, to: story) }
            let lists = builder.lists(count: 4)
            #expect(lists.count == 4)
            #expect((0..<4).map { Array(lists[$0]) } == [[3, 4], [], [7, 9, 1], []])
        }

        @Test("sorted and distinct, each list is in ascending order with every position once")
        func sortedDistinct() {
            var builder = PositionLists.Builder()
            for (position, story) in [(5, 1), (2, 1), (5, 1), (8, 0), (2, 1), (0, 3), (0, 3)] { builder.append(position, to: story) }
            let lists = builder.lists(count: 4).sortedDistinct()
            #expect((0..<4).map { Array(lists[$0]) } == [[8], [2, 5], [], [0]])
        }
    }
}
