import StoryModel

/// The edges of a link graph, held flat: for each edge the positions of its source and target
/// among the graph's stories, its kind, and its texts (field path, reference as written, anchor,
/// saved slug) one after the other in one byte buffer. A graph of a million edges so holds a few
/// arrays instead of six strings an edge, and the kept content writes and reads those arrays as
/// they are (``write(into:)``). An edge becomes a ``LinkGraph/Edge``, with strings of its own,
/// only when one is asked for (``edge(at:uuid:)``).
///
/// The texts of an edge: a flags byte (the reference's form in the low two bits, then whether an
/// anchor and a saved slug follow), the field path, the reference unless it is the target's
/// UUID (the usual case), the anchor and the saved slug, each as its length (LEB128) and bytes.
struct EdgeTable: Sendable {
    /// Per edge: the position of its source among the stories; -1 when it is none of them (its
    /// UUID is then in ``placedSources``).
    private(set) var sources: [Int32] = []
    /// Per edge: the position of the story it resolved to; -1 when it resolved to none reached.
    private(set) var targets: [Int32] = []
    /// Per edge: its kind's ``ReferenceKind/code``.
    private(set) var kinds: [UInt8] = []
    /// Per edge: where its texts end in ``text``, which is where the next edge's start.
    private(set) var textEnds: [UInt32] = []
    private(set) var text = EdgeText()
    /// The UUIDs of sources that are not among the stories, by edge.
    private(set) var placedSources: [Int: String] = [:]
    /// The UUIDs of targets not among the stories, by edge (a graph made by hand may name them).
    private(set) var placedTargets: [Int: String] = [:]

    /// How a reference is written among an edge's texts.
    fileprivate enum ReferenceForm: UInt8 {
        /// `.uuid` of the edge's target: nothing written.
        case targetUUID = 0
        case uuid = 1
        case slug = 2
        /// `.id`, written in decimal digits.
        case id = 3
    }

    private static let hasAnchor: UInt8 = 1 << 2
    private static let hasCachedURL: UInt8 = 1 << 3
    private static let knownFlags: UInt8 = 0b1111

    init() {}

    var count: Int { kinds.count }

    /// A hash of where the edges lead, not of what their texts say: each edge's source, target,
    /// kind and whether it resolved.
    var shape: UInt64 {
        var fingerprint = Fingerprint()
        sources.withUnsafeBytes { fingerprint.combine(bytes: $0.assumingMemoryBound(to: UInt8.self)) }
        targets.withUnsafeBytes { fingerprint.combine(bytes: $0.assumingMemoryBound(to: UInt8.self)) }
        fingerprint.combine(bytes: kinds)
        for index in placedTargets.keys.sorted() { fingerprint.combine(Int64(index)) }
        return fingerprint.value
    }

    /// Makes room for `count` more edges with `textBytes` more bytes of text.
    mutating func reserveCapacity(adding count: Int, textBytes: Int) {
        sources.reserveCapacity(sources.count + count)
        targets.reserveCapacity(targets.count + count)
        kinds.reserveCapacity(kinds.count + count)
        textEnds.reserveCapacity(textEnds.count + count)
        text.reserveCapacity(text.count + textBytes)
    }

    // MARK: Adding edges

    /// Adds an edge whose source is the story at `source` (nil for none of the stories, named by
    /// `sourceUUID` alone), which resolved to the story with the UUID `target` (nil for none). Its
    /// target's position is set with ``setTarget(ofEdge:to:uuid:)``; until then it has none.
    mutating func append(
        source: Int?, sourceUUID: String, fieldPath: String, kind: ReferenceKind, reference: StoryReference,
        anchor: String?, cachedURL: String?, target: String?
    ) {
        let index = count
        if let source {
            sources.append(Int32(source))
        } else {
            sources.append(-1)
            placedSources[index] = sourceUUID
        }
        targets.append(-1)
        kinds.append(kind.code)
        var flags: UInt8 = (anchor == nil ? 0 : Self.hasAnchor) | (cachedURL == nil ? 0 : Self.hasCachedURL)
        var written: String?
        switch reference {
        case .uuid(let uuid) where uuid == target: flags |= ReferenceForm.targetUUID.rawValue
        case .uuid(let uuid): flags |= ReferenceForm.uuid.rawValue; written = uuid
        case .slug(let slug): flags |= ReferenceForm.slug.rawValue; written = slug
        case .id(let id): flags |= ReferenceForm.id.rawValue; written = String(id)
        }
        text.append(flags)
        appendText(fieldPath)
        if let written { appendText(written) }
        if let anchor { appendText(anchor) }
        if let cachedURL { appendText(cachedURL) }
        precondition(text.count <= UInt32.max, "a link graph's edges hold more than 4 GB of text")
        textEnds.append(UInt32(text.count))
    }

    private mutating func appendText(_ string: String) {
        var string = string  // withUTF8 may make the storage contiguous, so it needs a var
        string.withUTF8 { utf8 in
            text.append(number: UInt64(utf8.count))
            text.append(contentsOf: utf8)
        }
    }

    /// Sets the target of the edge at `index`: the story at `position`, or, for none reached,
    /// the UUID `uuid` the reference resolved to (nil for none).
    mutating func setTarget(ofEdge index: Int, to position: Int?, uuid: String?) {
        if let position {
            targets[index] = Int32(position)
        } else if let uuid {
            placedTargets[index] = uuid
        }
    }

    /// Adds the edges of `other` after these, moving its texts as they are.
    mutating func append(contentsOf other: EdgeTable) {
        let first = count
        let textOffset = UInt32(text.count)
        sources.append(contentsOf: other.sources)
        targets.append(contentsOf: other.targets)
        kinds.append(contentsOf: other.kinds)
        precondition(text.count + other.text.count <= UInt32.max, "a link graph's edges hold more than 4 GB of text")
        textEnds.reserveCapacity(textEnds.count + other.count)
        for end in other.textEnds { textEnds.append(end + textOffset) }
        text.append(0..<other.text.count, of: other.text)
        for (index, uuid) in other.placedSources { placedSources[first + index] = uuid }
        for (index, uuid) in other.placedTargets { placedTargets[first + index] = uuid }
    }

    /// Adds the edges at `range` of `other` as edges of the story at `source`, their texts as
    /// they are; each one's target is set with ``setTarget(ofEdge:to:uuid:)``, until then none.
    mutating func append(edges range: Range<Int>, of other: EdgeTable, source: Int) {
        guard !range.isEmpty else { return }
        let textStart = other.textStart(ofEdge: range.lowerBound)
        let textEnd = Int(other.textEnds[range.upperBound - 1])
        precondition(text.count + textEnd - textStart <= UInt32.max, "a link graph's edges hold more than 4 GB of text")
        sources.append(contentsOf: repeatElement(Int32(source), count: range.count))
        targets.append(contentsOf: repeatElement(-1, count: range.count))
        kinds.append(contentsOf: other.kinds[range])
        for end in other.textEnds[range] { textEnds.append(UInt32(text.count + Int(end) - textStart)) }
        text.append(textStart..<textEnd, of: other.text)
    }

    // MARK: Reading

    /// The edges of each of the first `storyCount` stories, as ranges: what a crawl makes, whose
    /// every edge's source is a story and which adds a story's edges together, in the order of
    /// the stories. Nil for a table that is not so.
    func runsBySource(storyCount: Int) -> [Range<Int>]? {
        var runs: [Range<Int>] = []
        runs.reserveCapacity(storyCount)
        var index = 0
        for source in 0..<Int32(clamping: storyCount) {
            let start = index
            while index < count, sources[index] == source { index += 1 }
            runs.append(start..<index)
        }
        return index == count ? runs : nil
    }

    /// The position of the source of the edge at `index`; nil when it is none of the stories.
    func source(ofEdge index: Int) -> Int? {
        sources[index] < 0 ? nil : Int(sources[index])
    }

    /// The position of the target of the edge at `index`; nil for none reached.
    func target(ofEdge index: Int) -> Int? {
        targets[index] < 0 ? nil : Int(targets[index])
    }

    func kind(ofEdge index: Int) -> ReferenceKind {
        ReferenceKind(code: kinds[index])!
    }

    /// Whether the edge at `index` resolved to a story (reached or, in a graph made by hand, not).
    func isResolved(_ index: Int) -> Bool {
        targets[index] >= 0 || placedTargets[index] != nil
    }

    /// Whether the edge at `index` resolved at the first step of its lookup order, by a name
    /// that one story alone can have: its target's UUID, or a slug (a folder's slugs are
    /// unique). No story added elsewhere can take such an edge; only its target's leaving can.
    func resolvedByItsOwnName(_ index: Int) -> Bool {
        guard targets[index] >= 0 else { return false }
        // The form is in the low bits of the flags byte that starts the edge's texts.
        let form = ReferenceForm(rawValue: text[textStart(ofEdge: index)] & 0b11)
        return form == .targetUUID || form == .slug
    }

    /// The UUID of the target of the edge at `index`, the UUIDs of the stories at each position
    /// being `uuid`'s; nil when it resolved to none.
    func targetUUID(ofEdge index: Int, uuid: (Int) -> String) -> String? {
        targets[index] >= 0 ? uuid(Int(targets[index])) : placedTargets[index]
    }

    /// Where the texts of an edge are in ``text``.
    struct Texts {
        fileprivate var form: ReferenceForm
        var fieldPath: Range<Int>
        /// The reference as written; nil when it is the target's UUID.
        var reference: Range<Int>?
        var anchor: Range<Int>?
        var cachedURL: Range<Int>?
    }

    /// Where the texts of the edge at `index` are (a table read from a file was checked whole).
    func texts(ofEdge index: Int) -> Texts {
        text.withUnsafeBufferPointer { Self.texts(in: $0, from: textStart(ofEdge: index), to: Int(textEnds[index])) }!
    }

    /// Where the texts of the edge at `index` start in ``text``: where the edge before ends.
    private func textStart(ofEdge index: Int) -> Int {
        index == 0 ? 0 : Int(textEnds[index - 1])
    }

    /// The texts of one edge in `text[start..<end]`; nil when they are not one edge's texts.
    /// The bytes are read once, in place: a nested function reading each text captured the
    /// offset it moved, which cost a check of exclusive access at every step, for every edge of
    /// every fingerprint and every edge of a graph read.
    private static func texts(in text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Texts? {
        guard start >= 0, start < end, end <= text.count, text[start] & ~knownFlags == 0,
              let form = ReferenceForm(rawValue: text[start] & 0b11) else { return nil }
        let flags = text[start]
        let bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[..<end])
        var offset = start + 1
        guard let fieldPath = nextText(in: bytes, at: &offset) else { return nil }
        var texts = Texts(form: form, fieldPath: fieldPath)
        if form != .targetUUID {
            guard let reference = nextText(in: bytes, at: &offset) else { return nil }
            texts.reference = reference
        }
        if flags & hasAnchor != 0 {
            guard let anchor = nextText(in: bytes, at: &offset) else { return nil }
            texts.anchor = anchor
        }
        if flags & hasCachedURL != 0 {
            guard let cachedURL = nextText(in: bytes, at: &offset) else { return nil }
            texts.cachedURL = cachedURL
        }
        return offset == end ? texts : nil
    }

    /// Where the text written at `offset` of `bytes` (its length, then its bytes) is, moving
    /// `offset` past it; nil when it does not fit.
    private static func nextText(in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Range<Int>? {
        guard let length = ByteRecordReader.number(in: bytes, at: &offset), length <= UInt64(bytes.count - offset) else { return nil }
        offset += Int(length)
        return offset - Int(length)..<offset
    }

    func string(_ range: Range<Int>) -> String {
        text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// The reference of an edge with these texts as written; nil when it names its target by
    /// UUID (``Texts/reference`` is then nil too).
    func writtenReference(_ texts: Texts) -> StoryReference? {
        guard let range = texts.reference else { return nil }
        switch texts.form {
        case .targetUUID: return nil
        case .uuid: return .uuid(string(range))
        case .slug: return .slug(string(range))
        case .id: return Int(string(range)).map(StoryReference.id)
        }
    }

    /// The edge at `index` as a value, the UUIDs of the stories at each position being `uuid`'s.
    func edge(at index: Int, uuid: (Int) -> String) -> LinkGraph.Edge {
        let texts = texts(ofEdge: index)
        let target = targetUUID(ofEdge: index, uuid: uuid)
        return LinkGraph.Edge(
            source: source(ofEdge: index).map(uuid) ?? placedSources[index]!, fieldPath: string(texts.fieldPath),
            kind: kind(ofEdge: index), reference: writtenReference(texts) ?? .uuid(target!),
            anchor: texts.anchor.map(string), cachedURL: texts.cachedURL.map(string), target: target)
    }

    /// Whether the edge at `index` saved another slug (as a lookup key, see ``SlugLookup/key(_:)``)
    /// for the story it resolved to, whose `full_slug` is `targetSlug` (see ``LinkGraph/staleEdges``).
    /// `target` gives that story for the rare edge that names a UUID of its own.
    func isStale(edgeAt index: Int, targetSlug: UnsafeBufferPointer<UInt8>, target: () -> Story) -> Bool {
        let texts = texts(ofEdge: index)
        guard let cachedURL = texts.cachedURL else { return false }
        // A link by UUID that leads to another story is that story's version in the crawled
        // language (a space translated folder by folder): its slug differs without the link
        // being out of date. (A numeric UUID is a short id, which names its story.)
        if texts.form == .uuid, let written = texts.reference {
            let uuid = string(written)
            if uuid != target().uuid, Int(uuid) == nil { return false }
        }
        return text.withUnsafeBufferPointer { !SlugLookup.sameKey(of: UnsafeBufferPointer(rebasing: $0[cachedURL]), as: targetSlug) }
    }

    /// Whether the edge at `index` saved another slug for `target`, the story it resolved to.
    func isStale(edgeAt index: Int, target: Story) -> Bool {
        var slug = target.fullSlug  // withUTF8 may make the storage contiguous, so it needs a var
        return slug.withUTF8 { isStale(edgeAt: index, targetSlug: $0) { target } }
    }

    /// Mixes into `fingerprint` what the content wrote of the edge at `index`: its field path,
    /// kind, reference, anchor and saved slug. A reference that is the UUID of a target among
    /// the stories is mixed in as that fact alone: the target is for the caller to mix in.
    func combineWritten(ofEdge index: Int, into fingerprint: inout Fingerprint) {
        let texts = texts(ofEdge: index)
        text.withUnsafeBufferPointer { text in
            fingerprint.combine(bytes: UnsafeBufferPointer(rebasing: text[texts.fieldPath]))
            fingerprint.combine(Int64(kinds[index]))
            // A text's length comes first, so no text mixes in as -1.
            func combine(_ range: Range<Int>?) {
                if let range { fingerprint.combine(bytes: UnsafeBufferPointer(rebasing: text[range])) } else { fingerprint.combine(-1) }
            }
            if texts.reference != nil { fingerprint.combine(Int64(texts.form.rawValue)) }
            combine(texts.reference)
            if texts.reference == nil, targets[index] < 0, let uuid = placedTargets[index] { fingerprint.combine(uuid) }
            combine(texts.anchor)
            combine(texts.cachedURL)
        }
    }

    // MARK: On disk

    /// Writes the table: its arrays as they are in memory (little-endian; the text not copied),
    /// then the UUIDs placed.
    func write(into writer: inout ByteRecordWriter) {
        writer.number(count)
        writer.numbers(sources)
        writer.numbers(targets)
        writer.raw(kinds)
        writer.numbers(textEnds)
        text.withUnsafeBufferPointer { writer.raw(UnsafeRawBufferPointer($0)) }
        for placed in [placedSources, placedTargets] {
            writer.number(placed.count)
            for index in placed.keys.sorted() {
                writer.number(index)
                writer.inlineString(placed[index]!)
            }
        }
    }

    /// The table ``write(into:)`` wrote, for a graph of `storyCount` stories; nil when it is
    /// unreadable or its edges are not edges of such a graph: every position among the stories,
    /// every kind known, every edge's texts whole, every reference by its target's UUID with a
    /// target, every id a number. `reader` reads `file`, where the texts are used as they are.
    init?(from reader: inout ByteRecordReader, storyCount: Int, in file: MappedFile) {
        guard let count = reader.count(),
              let sources: [Int32] = reader.numbers(count: count), let targets: [Int32] = reader.numbers(count: count),
              let kinds: [UInt8] = reader.numbers(count: count), let textEnds: [UInt32] = reader.numbers(count: count),
              let textBytes = reader.raw(), textBytes.count == textEnds.last.map(Int.init) ?? 0
        else { return nil }
        var placed: [[Int: String]] = []
        for _ in 0..<2 {
            guard let placedCount = reader.count() else { return nil }
            var uuids: [Int: String] = [:]
            for _ in 0..<placedCount {
                guard let index = reader.position(below: count), let uuid = reader.inlineString() else { return nil }
                uuids[index] = uuid
            }
            placed.append(uuids)
        }
        let (placedSources, placedTargets) = (placed[0], placed[1])
        let isEdges = textBytes.withMemoryRebound(to: UInt8.self) { text in
            var start = 0
            for index in 0..<count {
                let end = Int(textEnds[index])
                guard sources[index] < storyCount, sources[index] >= 0 || (sources[index] == -1 && placedSources[index] != nil),
                      targets[index] < storyCount, targets[index] >= -1, ReferenceKind(code: kinds[index]) != nil,
                      end >= start, end <= text.count,
                      let texts = Self.texts(in: text, from: start, to: end),
                      texts.form != .targetUUID || targets[index] >= 0 || placedTargets[index] != nil,
                      texts.form != .id
                      || texts.reference.flatMap({ Int(String(decoding: UnsafeBufferPointer(rebasing: text[$0]), as: UTF8.self)) }) != nil
                else { return false }
                start = end
            }
            return true
        }
        guard isEdges else { return nil }
        self.sources = sources
        self.targets = targets
        self.kinds = kinds
        self.textEnds = textEnds
        text = EdgeText(borrowing: textBytes, of: file)
        self.placedSources = placedSources
        self.placedTargets = placedTargets
    }
}
