import Foundation
import Testing
import TestSupport
@testable import Preview

extension PreviewTests {
    @Suite("Watching folders")
    struct FolderWatcherTests {
        static let modes: [FolderWatcher.Mode] = [.automatic, .polling(interval: .milliseconds(50))]

        /// Collects the watcher's changes as they arrive.
        static func collecting(_ watcher: FolderWatcher) -> (Shared<[FolderChanges]>, Task<Void, Never>) {
            let received = Shared<[FolderChanges]>([])
            let task = Task {
                for await changes in watcher.changes { received.update { $0.append(changes) } }
            }
            return (received, task)
        }

        /// Changes to exactly the files at `urls`.
        static func changes(_ urls: URL...) -> FolderChanges {
            FolderChanges(paths: Set(urls.map(\.path)))
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
            let (received, task) = Self.collecting(watcher)
            defer { watcher.stop(); task.cancel() }
            for index in 0..<10 { try folder.write("Content/a.json", "{\"n\": \(index)}") }
            #expect(await eventually { received.value.count == 1 })
            try await Task.sleep(for: .milliseconds(600))
            #expect(received.value == [Self.changes(folder.path("Content/a.json"))])
        }

        @Test("files saved in one burst are reported together, each by its path", arguments: modes)
        func burstOfFiles(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", "{}")
            try folder.write("Content/posts/b.json", "{}")
            // A longer quiet period than serve's, so a busy test machine cannot split the burst.
            let watcher = FolderWatcher(folders: [folder.path("Content")], mode: mode, quietPeriod: .milliseconds(300))
            let (received, task) = Self.collecting(watcher)
            defer { watcher.stop(); task.cancel() }
            let first = try folder.write("Content/a.json", #"{"title": "A"}"#)
            let second = try folder.write("Content/posts/b.json", #"{"title": "B"}"#)
            #expect(await eventually { received.value.count == 1 })
            try await Task.sleep(for: .milliseconds(600))
            #expect(received.value == [Self.changes(first, second)])
        }

        @Test("a file saved by renaming a temporary file over it is reported, the temporary file is not", arguments: modes)
        func renamedOver(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            let file = try folder.write("Content/a.json", "{}")
            let watcher = FolderWatcher(folders: [folder.path("Content")], mode: mode)
            let (received, task) = Self.collecting(watcher)
            defer { watcher.stop(); task.cancel() }
            let temporary = try folder.write("Content/.a.json.tmp", #"{"saved": true}"#)
            #expect(rename(temporary.path, file.path) == 0)
            #expect(await eventually { received.value.count == 1 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(received.value == [Self.changes(file)])
        }

        @Test("changes not taken yet are merged into the next element", arguments: modes)
        func untakenChangesMerge(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", "{}")
            try folder.write("Content/b.json", "{}")
            let watcher = FolderWatcher(folders: [folder.path("Content")], mode: mode)
            defer { watcher.stop() }
            try folder.write("Content/a.json", #"{"n": 1}"#)
            try await Task.sleep(for: .milliseconds(400))
            try folder.write("Content/b.json", #"{"n": 2}"#)
            try await Task.sleep(for: .milliseconds(400))
            let (received, task) = Self.collecting(watcher)
            defer { task.cancel() }
            #expect(await eventually { !received.value.isEmpty })
            try await Task.sleep(for: .milliseconds(300))
            #expect(received.value == [Self.changes(folder.path("Content/a.json"), folder.path("Content/b.json"))])
        }

        @Test("a folder created is an unknown change, and the files in it are watched too", arguments: modes)
        func newFolders(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            try folder.write("Templates/layout.mustache", "x")
            let watcher = FolderWatcher(folders: [folder.path("Templates")], mode: mode)
            let (received, task) = Self.collecting(watcher)
            defer { watcher.stop(); task.cancel() }
            try FileManager.default.createDirectory(at: folder.path("Templates/components/deep"), withIntermediateDirectories: true)
            #expect(await eventually { received.value.count == 1 })
            try await Task.sleep(for: .milliseconds(200))
            let file = try folder.write("Templates/components/deep/a.mustache", "y")
            #expect(await eventually { received.value.count == 2 })
            #expect(received.value == [.unknown, Self.changes(file)])
        }

        @Test("editors' temporary files are not changes", arguments: modes)
        func ignored(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", "{}")
            let watcher = FolderWatcher(folders: [folder.path("Content")], mode: mode)
            let (received, task) = Self.collecting(watcher)
            defer { watcher.stop(); task.cancel() }
            try folder.write("Content/.a.json.swp", "x")
            try folder.write("Content/a.json~", "x")
            try FileManager.default.createDirectory(at: folder.path("Content/.git"), withIntermediateDirectories: true)
            try await Task.sleep(for: .milliseconds(400))
            #expect(received.value.isEmpty)
            let file = try folder.write("Content/a.json", #"{"saved": true}"#)
            #expect(await eventually { received.value.count == 1 })
            #expect(received.value == [Self.changes(file)])
        }

        @Test("a removed file is reported by its path", arguments: modes)
        func removedFile(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            let file = try folder.write("Content/posts/a.json", "{}")
            let watcher = FolderWatcher(folders: [folder.path("Content")], mode: mode)
            let (received, task) = Self.collecting(watcher)
            defer { watcher.stop(); task.cancel() }
            try FileManager.default.removeItem(at: file)
            #expect(await eventually { received.value.count == 1 })
            #expect(received.value == [Self.changes(file)])
        }

        @Test("a watched file is changed by a write, by a rename over it and by its deletion", arguments: modes)
        func watchedFile(mode: FolderWatcher.Mode) async throws {
            let folder = try TemporaryFolder()
            let file = try folder.write("storysite.json", "{}")
            let watcher = FolderWatcher(folders: [], files: [file], mode: mode)
            let (received, task) = Self.collecting(watcher)
            defer { watcher.stop(); task.cancel() }
            try folder.write("storysite.json", #"{"strict": true}"#)
            #expect(await eventually { received.value.count == 1 })
            let replacement = try folder.write("storysite.json.new", #"{"strict": false}"#)
            #expect(rename(replacement.path, file.path) == 0)
            #expect(await eventually { received.value.count == 2 })
            try FileManager.default.removeItem(at: file)
            #expect(await eventually { received.value.count == 3 })
            #expect(received.value == Array(repeating: Self.changes(file), count: 3), "each reports the file by its path")
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

        /// What `source` has seen change, after letting any pending events arrive.
        static func drained(_ source: any ChangeSource) -> FolderChanges {
            var changes = FolderChanges.empty
            while true {
                let noticed = source.waitForChange(milliseconds: 0)
                guard !noticed.isEmpty else { return changes }
                changes.merge(noticed)
            }
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
            #expect(source.waitForChange(milliseconds: 0).isEmpty)
            let file = try folder.write("storysite.json", "{}")
            #expect(Self.drained(source) == Self.changes(file))
        }

        @Test("a watched folder missing at the start, or deleted later, is watched once it is back", arguments: modes)
        func returningFolder(mode: FolderWatcher.Mode) throws {
            let folder = try TemporaryFolder()
            let source = try Self.source(mode, roots: [folder.path("Templates")])
            defer { source.close() }
            #expect(Self.drained(source).isEmpty)
            let layout = try folder.write("Templates/layout.mustache", "a")
            #expect(Self.drained(source) == .unknown)
            try folder.write("Templates/layout.mustache", "b")
            #expect(Self.drained(source) == Self.changes(layout))

            try FileManager.default.removeItem(at: folder.path("Templates"))
            #expect(Self.drained(source) == .unknown)
            try folder.write("Templates/layout.mustache", "c")
            #expect(Self.drained(source) == .unknown)
            try folder.write("Templates/pages/default.mustache", "d")
            #expect(Self.drained(source) == .unknown)
        }

        @Test("a watched folder moved away and replaced is watched at its path, not where it went", arguments: modes)
        func replacedFolder(mode: FolderWatcher.Mode) throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/a.json", "{}")
            let source = try Self.source(mode, roots: [folder.path("Content")])
            defer { source.close() }
            try FileManager.default.moveItem(at: folder.path("Content"), to: folder.path("Old"))
            try folder.write("Content/a.json", "{\"new\": true}")
            #expect(!Self.drained(source).isEmpty)
            try folder.write("Old/a.json", "{\"old\": true}")
            #expect(Self.drained(source).isEmpty)
            let added = try folder.write("Content/b.json", "{}")
            #expect(Self.drained(source) == Self.changes(added))
        }

        @Test("a sub-folder moved out of a watched folder is an unknown change, and is not watched where it went", arguments: modes)
        func movedOutFolder(mode: FolderWatcher.Mode) throws {
            let folder = try TemporaryFolder()
            try folder.write("Content/posts/a.json", "{}")
            let source = try Self.source(mode, roots: [folder.path("Content")])
            defer { source.close() }
            try FileManager.default.moveItem(at: folder.path("Content/posts"), to: folder.path("Old"))
            #expect(Self.drained(source) == .unknown)
            try folder.write("Old/a.json", "{\"old\": true}")
            #expect(Self.drained(source).isEmpty)
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

        @Test("cancelling the consuming task ends its stream of changes")
        func cancels() async throws {
            let folder = try TemporaryFolder()
            let watcher = FolderWatcher(folders: [folder.url])
            defer { watcher.stop() }
            let ended = Shared(false)
            let task = Task {
                for await _ in watcher.changes {}
                ended.update { $0 = true }
            }
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()
            #expect(await eventually { ended.value })
        }
    }
}
