import Foundation
import Testing
import TestSupport
@testable import Preview

extension PreviewTests {
    @Suite("Watching folders")
    struct FolderWatcherTests {
        static let modes: [FolderWatcher.Mode] = [.automatic, .polling(interval: .milliseconds(50))]

        /// Counts the watcher's changes as they arrive.
        static func counting(_ watcher: FolderWatcher) -> (Shared<Int>, Task<Void, Never>) {
            let count = Shared(0)
            let task = Task {
                for await _ in watcher.changes { count.update { $0 += 1 } }
            }
            return (count, task)
        }

        @Test("inotify is used on Linux")
        func usesInotify() throws {
            let folder = try TemporaryFolder()
            let watcher = FolderWatcher(folders: [folder.url])
            defer { watcher.stop() }
            #if os(Linux)
            #expect(!watcher.isPolling)
            #endif
        }

        @Test("a burst of saves is one change", arguments: modes)
        func burst(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", "{}")
            // A longer quiet period than serve's, so a busy test machine cannot split the burst.
            let watcher = FolderWatcher(folders: [folder.path("Content")], mode: mode, quietPeriod: .milliseconds(300))
            let (count, task) = Self.counting(watcher)
            defer { watcher.stop(); task.cancel() }
            for index in 0..<10 { try folder.write("Content/a.json", "{\"n\": \(index)}") }
            #expect(await eventually { count.value == 1 })
            try await Task.sleep(for: .milliseconds(600))
            #expect(count.value == 1)
        }

        @Test("files in folders created after the start are watched too", arguments: modes)
        func newFolders(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            try folder.write("Templates/layout.mustache", "x")
            let watcher = FolderWatcher(folders: [folder.path("Templates")], mode: mode)
            let (count, task) = Self.counting(watcher)
            defer { watcher.stop(); task.cancel() }
            try FileManager.default.createDirectory(at: folder.path("Templates/components/deep"), withIntermediateDirectories: true)
            #expect(await eventually { count.value == 1 })
            try await Task.sleep(for: .milliseconds(200))
            try folder.write("Templates/components/deep/a.mustache", "y")
            #expect(await eventually { count.value == 2 })
        }

        @Test("editors' temporary files are not changes", arguments: modes)
        func ignored(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", "{}")
            let watcher = FolderWatcher(folders: [folder.path("Content")], mode: mode)
            let (count, task) = Self.counting(watcher)
            defer { watcher.stop(); task.cancel() }
            try folder.write("Content/.a.json.swp", "x")
            try folder.write("Content/a.json~", "x")
            try await Task.sleep(for: .milliseconds(400))
            #expect(count.value == 0)
            try FileManager.default.removeItem(at: folder.path("Content/a.json"))
            #expect(await eventually { count.value == 1 })
        }

        @Test("a watched file is changed by a write, by a rename over it and by its deletion", arguments: modes)
        func watchedFile(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            let file = try folder.write("storysite.json", "{}")
            let watcher = FolderWatcher(folders: [], files: [file], mode: mode)
            let (count, task) = Self.counting(watcher)
            defer { watcher.stop(); task.cancel() }
            try folder.write("storysite.json", #"{"strict": true}"#)
            #expect(await eventually { count.value == 1 })
            let replacement = try folder.write("storysite.json.new", #"{"strict": false}"#)
            #expect(rename(replacement.path, file.path) == 0)
            #expect(await eventually { count.value == 2 })
            try FileManager.default.removeItem(at: file)
            #expect(await eventually { count.value == 3 })
        }

        /// The source a watcher in `mode` uses for `file`, polling on every call.
        static func source(_ mode: FolderWatcher.Mode, roots: [URL] = [], files: [URL] = []) throws -> any ChangeSource {
            switch mode {
            case .polling:
                return PollingSource(roots: roots, files: files, interval: .zero)
            case .automatic:
                #if canImport(Glibc)
                return try #require(InotifySource(roots: roots, files: files))
                #else
                return PollingSource(roots: roots, files: files, interval: .zero)
                #endif
            }
        }

        /// Whether `source` has seen a change, after letting any pending events arrive.
        static func drained(_ source: any ChangeSource) -> Bool {
            var changed = false
            while source.waitForChange(milliseconds: 0) { changed = true }
            return changed
        }

        // Asks the source directly: inotify queues an event during the write that causes it, and
        // polling here compares on every call, so "no change" needs no waiting.
        @Test("other files and folders beside a watched file are not watched", arguments: modes)
        func watchedFileOnly(mode: FolderWatcher.Mode) throws {
            let folder = try TemporaryFolder()
            let source = try Self.source(mode, files: [folder.path("storysite.json")])
            defer { source.close() }
            try folder.write("notes.json", "{}")
            try folder.write("Output/index.html", "<p>built</p>")
            #expect(!source.waitForChange(milliseconds: 0))
            try folder.write("storysite.json", "{}")
            #expect(source.waitForChange(milliseconds: 0))
        }

        @Test("a watched folder missing at the start, or deleted later, is watched once it is back", arguments: modes)
        func returningFolder(mode: FolderWatcher.Mode) throws {
            let folder = try TemporaryFolder()
            let source = try Self.source(mode, roots: [folder.path("Templates")])
            defer { source.close() }
            #expect(!Self.drained(source))
            try folder.write("Templates/layout.mustache", "a")
            #expect(Self.drained(source))
            try folder.write("Templates/layout.mustache", "b")
            #expect(Self.drained(source))

            try FileManager.default.removeItem(at: folder.path("Templates"))
            #expect(Self.drained(source))
            try folder.write("Templates/layout.mustache", "c")
            #expect(Self.drained(source))
            try folder.write("Templates/pages/default.mustache", "d")
            #expect(Self.drained(source))
        }

        @Test("a watched folder moved away and replaced is watched at its path, not where it went", arguments: modes)
        func replacedFolder(mode: FolderWatcher.Mode) throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", "{}")
            let source = try Self.source(mode, roots: [folder.path("Content")])
            defer { source.close() }
            try FileManager.default.moveItem(at: folder.path("Content"), to: folder.path("Old"))
            try folder.write("Content/a.json", "{\"new\": true}")
            #expect(Self.drained(source))
            try folder.write("Old/a.json", "{\"old\": true}")
            #expect(!Self.drained(source))
            try folder.write("Content/b.json", "{}")
            #expect(Self.drained(source))
        }

        @Test("stopping ends the stream of changes")
        func stops() async throws {
            let folder = try TemporaryFolder()
            let watcher = FolderWatcher(folders: [folder.url])
            let ended = Shared(false)
            let task = Task {
                for await _ in watcher.changes {}
                ended.update { $0 = true }
            }
            watcher.stop()
            #expect(await eventually { ended.value })
            task.cancel()
        }
    }
}
