import Testing
import Preview

extension PreviewTests {
    @Suite("Changes a folder watcher reports")
    struct FolderChangesTests {
        @Test("merging unions the paths")
        func mergesPaths() {
            var changes = FolderChanges(paths: ["/site/Content/a.json"])
            changes.merge(FolderChanges(paths: ["/site/Content/b.json", "/site/Content/a.json"]))
            changes.merge(.empty)
            #expect(changes == FolderChanges(paths: ["/site/Content/a.json", "/site/Content/b.json"]))
            #expect(!changes.isEmpty)
        }

        @Test("unknown changes absorb any they are merged with, and any merged into them")
        func unknownAbsorbs() {
            var known = FolderChanges(paths: ["/site/Content/a.json"])
            known.merge(.unknown)
            #expect(known == .unknown)
            var unknown = FolderChanges.unknown
            unknown.merge(FolderChanges(paths: ["/site/Content/a.json"]))
            #expect(unknown == .unknown)
            #expect(!unknown.isEmpty)
        }

        @Test("empty changes are empty")
        func empty() {
            #expect(FolderChanges.empty.isEmpty)
            #expect(FolderChanges(paths: []) == .empty)
        }
    }
}
