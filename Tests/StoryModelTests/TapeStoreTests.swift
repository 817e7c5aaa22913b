import Dispatch
import Foundation
import Testing
import TestSupport
@testable import StoryModel

extension StoryModelTests {
    @Suite("Story content kept in a tape store")
    struct TapeStoreTests {
        private static let storyJSON = #"""
            {"story": {"name": "Caf\u00e9 menu", "uuid": "0b9e4c1a-5d2f-4a8e-9c3b-7f1e2d3c4b5a", "id": 7, "full_slug": "menu/cafe",
            "tag_list": ["food", "caf\u00e9"], "published_at": "2024-05-01T10:00:00.000Z", "is_startpage": false,
            "content": {"_uid": "r", "component": "page", "body": [{"_uid": "h", "component": "hero", "title": "Caf\u00e9",
            "link": {"linktype": "story", "id": "a1", "cached_url": "about"}}], "score": 4.5, "draft": null},
            "position": 3}}
            """#

        private static func tapeStory(_ json: String = storyJSON) throws -> Story {
            let tape = try JSONTape(parsing: Array(json.utf8))
            let object = try #require(tape.withReader { $0.value(forKey: "story", inObject: 0) })
            return try Story(tape: tape, at: object, digest: "d1g3st")
        }

        @Test("a tape kept in the store reads back word for word, kept from many threads at once")
        func tapesReadBack() throws {
            let folder = try TemporaryFolder()
            let store = try #require(TapeStore(folder: folder.url.path))
            let tapes = try (0..<64).map { number in
                try JSONTape(parsing: Array(#"{"n": \#(number), "text": "\#(String(repeating: "é", count: number))", "list": [\#(number), true, null]}"#.utf8))
            }
            nonisolated(unsafe) var locations = [TapeStore.Location?](repeating: nil, count: tapes.count)
            locations.withUnsafeMutableBufferPointer { locations in
                nonisolated(unsafe) let locations = locations
                DispatchQueue.concurrentPerform(iterations: tapes.count) { locations[$0] = store.keep(tapes[$0]) }
            }
            for (tape, location) in zip(tapes, locations) {
                let read = store.tape(at: try #require(location))
                #expect(read.words == tape.words)
                #expect(read.strings == tape.strings)
                #expect(read.value() == tape.value())
            }
        }

        @Test("the store's file has no name: the folder it is made in stays empty")
        func namelessFile() throws {
            let folder = try TemporaryFolder()
            let store = try #require(TapeStore(folder: folder.url.path))
            _ = store.keep(try JSONTape(parsing: Array(#"{"a": 1}"#.utf8)))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
            #expect(TapeStore(folder: folder.path("missing").path) == nil)
            // Beside an output folder that does not exist yet: in the folder that would hold it.
            let beside = try #require(TapeStore.beside(folder.path("Output")))
            _ = beside.keep(try JSONTape(parsing: Array(#"{"b": 2}"#.utf8)))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        }

        @Test("a story whose content is kept in a store reads as it did: content, object, head, fields, root component and identity")
        func storedStoryReadsTheSame() throws {
            let folder = try TemporaryFolder()
            let store = try #require(TapeStore(folder: folder.url.path))
            let story = try Self.tapeStory()
            let stored = story.storingContent(in: store)
            #expect(stored.versionID != story.versionID)
            #expect(stored == story)
            #expect(stored.content == story.content)
            #expect(stored.raw == story.raw)
            #expect(stored.head == story.head)
            #expect(stored.contentPosition == story.contentPosition)
            #expect(stored.rootComponent == "page")
            #expect(stored.contentField("score") == .number(4.5))
            #expect(stored.field("published_at") == story.field("published_at"))
            #expect(stored.field("content") == story.content)
            #expect(stored.tags == ["food", "café"])
            #expect((stored.uuid, stored.id, stored.name, stored.slug, stored.fullSlug) == (story.uuid, story.id, story.name, story.slug, story.fullSlug))
            #expect(stored.givenDigest == "d1g3st")
            #expect(stored.hasContentObject)
            let body = stored.withContent { _, reader, root in reader.value(forKey: "body", inObject: root).map(reader.value(at:)) }
            #expect(body == story.content.objectValue?["body"])
        }

        @Test("a story known by its head parks the tape its file is read into once, and reads it back from the store each time after")
        func deferredStoryParksItsTape() throws {
            let folder = try TemporaryFolder()
            let store = try #require(TapeStore(folder: folder.url.path))
            let story = try Self.tapeStory()
            let loads = LoadCount()
            let deferred = try Story(head: story.head, digest: "d1g3st", parkingIn: store) {
                loads.add()
                let tape = try? JSONTape(parsing: Array(Self.storyJSON.utf8))
                return tape.flatMap { tape in tape.withReader { $0.value(forKey: "story", inObject: 0) }.map { (tape, $0) } }
            }
            // The head is known without the file; nothing is in the store yet.
            #expect(deferred.field("position") == .number(3))
            #expect(loads.count == 0)
            #expect(store.keep(UnsafeRawBufferPointer(start: nil, count: 0))?.lowerBound == 0)
            #expect(deferred.content == story.content)
            #expect(deferred.raw == story.raw)
            #expect(deferred.contentField("score") == .number(4.5))
            #expect(deferred.hasContentObject)
            #expect(loads.count == 1)
            // The tape's words and strings went to the store.
            let parked = try #require(store.keep(UnsafeRawBufferPointer(start: nil, count: 0))).lowerBound
            #expect(parked == Int64(story.withContent { tape, _, _ in tape.words.count * 8 + tape.strings.count }))
        }

        /// How many times a deferred story's file was read.
        private final class LoadCount: @unchecked Sendable {
            // Safe to share: every access holds the lock.
            private let lock = NSLock()
            private var loads = 0
            var count: Int { lock.withLock { loads } }
            func add() { lock.withLock { loads += 1 } }
        }

        @Test("a story made from a tree, with no tape of its own, is kept as it is")
        func treeStoryStays() throws {
            let folder = try TemporaryFolder()
            let store = try #require(TapeStore(folder: folder.url.path))
            guard case .object(let object) = try JSONValue(parsing: #"{"uuid": "u", "full_slug": "a", "content": {"component": "page"}}"#) else {
                Issue.record("not an object")
                return
            }
            let story = try Story(json: object)
            #expect(story.storingContent(in: store).versionID == story.versionID)
        }
    }
}
