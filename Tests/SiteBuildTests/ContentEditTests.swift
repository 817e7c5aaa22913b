import Foundation
import StoryCrawl
import StoryModel
import Testing
import TestSupport
@testable import SiteBuild

extension SiteBuildTests {
    @Suite("What a content edit changed, and the readers kept for it")
    struct ContentEditTests {
        typealias Site = ContentReadersTests

        @Test("the earlier versions of the stories read again give back the last build's state: the edit names the stories whose content changed, and the state now")
        func editOfContent() throws {
            let before = try Site.graph()
            let after = try Site.graph(changing: "post2")
            let earlier = try #require(before.story(uuid: "post2"))
            let edit = try #require(ContentEdit(graph: after, from: ContentEdit.state(of: before, jobs: 2), earlier: ["post2": earlier], jobs: 2))
            #expect(edit.positions == [try #require(after.position(of: "post2"))])
            #expect(edit.state == ContentEdit.state(of: after, jobs: 2))
            #expect(edit.state != ContentEdit.state(of: before, jobs: 2))

            // A file saved again as it was: read again, nothing changed.
            let unchanged = try #require(ContentEdit(graph: before, from: ContentEdit.state(of: before, jobs: 2), earlier: ["post2": earlier], jobs: 2))
            #expect(unchanged.positions.isEmpty && unchanged.state == ContentEdit.state(of: before, jobs: 2))
        }

        @Test("no content edit when the earlier versions do not give back the last build's state, or a story has another head now")
        func notAnEdit() throws {
            let before = try Site.graph()
            let after = try Site.graph(changing: "post2")
            let state = ContentEdit.state(of: before, jobs: 2)
            #expect(ContentEdit(graph: after, from: state, earlier: [:], jobs: 2) == nil, "the version post2 had is not known")
            let earlier = try #require(before.story(uuid: "post2"))
            #expect(ContentEdit(graph: after, from: ContentEdit.state(of: after, jobs: 2), earlier: ["post2": earlier], jobs: 2) == nil, "another build's state")
            let renamed = try Site.story("post2", "blog/post2", text: "v1", extra: #", "position": 3"#)
            #expect(ContentEdit(graph: after, from: state, earlier: ["post2": renamed], jobs: 2) == nil, "post2's head changed")
        }

        @Test("readers kept on disk read back as noted, under the same key and state alone; cut short or naming a story past the graph's, they read as none")
        func keptReaders() throws {
            let graph = try Site.graph()
            let found = Site.fingerprintsAndReaders(graph)
            let output = try TemporaryFolder()
            try FileManager.default.createDirectory(at: output.path(".storysite"), withIntermediateDirectories: true)
            let kept = KeptReaders(found.readers, of: graph, state: "state")
            try kept.write(in: output.url, key: "key")
            let read = try #require(KeptReaders.read(in: output.url, key: "key", state: "state"))
            #expect(read.readers == found.readers)
            #expect(read.fit(graph, pageCount: found.keys.count))
            #expect(!read.fit(graph, pageCount: found.keys.count + 1))
            #expect(!read.fit(try Site.graph(linking: false), pageCount: found.keys.count), "the edges moved")
            #expect(KeptReaders.read(in: output.url, key: "other", state: "state") == nil)
            #expect(KeptReaders.read(in: output.url, key: "key", state: "other") == nil)

            let file = output.path(KeptReaders.relativePath)
            let bytes = try Data(contentsOf: file)
            try bytes.dropLast(3).write(to: file)
            #expect(KeptReaders.read(in: output.url, key: "key", state: "state") == nil)
            let past = ContentReaders(starts: [0, 1], positions: [Int32(graph.stories.count)], readByEveryPage: [])
            try KeptReaders(past, of: graph, state: "state").write(in: output.url, key: "key")
            #expect(KeptReaders.read(in: output.url, key: "key", state: "state") == nil)
        }
    }
}
