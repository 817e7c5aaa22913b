import StoryModel

/// The edges of the references found in one story of a crawl's level (and of its listing),
/// made on the level's threads, or for one story a replayed crawl reaches (``CrawlReplay``):
/// their table, whose targets are set once the story's place is known, and the UUID each
/// resolved to.
struct StoryEdges {
    var table = EdgeTable()
    var targets: [String?] = []

    init() {}

    /// The edges of `references`, found in the story at `source` with the UUID `uuid`, each
    /// resolved to the UUID `target` gives.
    init(source: Int, uuid: String, references: [ExtractedReference], target: (borrowing ExtractedReference) -> String?) {
        targets.reserveCapacity(references.count)
        // Indexing instead of iterating copies no reference as a whole.
        for index in references.indices {
            let resolved = target(references[index])
            table.append(
                source: source, sourceUUID: uuid, fieldPath: references[index].fieldPath, kind: references[index].kind,
                reference: references[index].reference, anchor: references[index].anchor,
                cachedURL: references[index].cachedURL, target: resolved)
            targets.append(resolved)
        }
    }

    /// Adds a listing edge to each of `members`, listed by the story at `source` with the UUID `uuid`.
    mutating func addListing(_ members: [Story], source: Int, uuid: String) {
        guard !members.isEmpty else { return }
        table.reserveCapacity(adding: members.count, textBytes: 2 * members.count)
        targets.reserveCapacity(targets.count + members.count)
        for member in members {
            table.append(
                source: source, sourceUUID: uuid, fieldPath: "", kind: .listing, reference: .uuid(member.uuid), anchor: nil,
                cachedURL: nil, target: member.uuid)
            targets.append(member.uuid)
        }
    }
}
