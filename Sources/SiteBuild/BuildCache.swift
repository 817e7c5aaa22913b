import Foundation
import StoryModel
import StoryRender

/// What a build remembers for the next one, in `<output>/.storysite/`: in `cache.json` the
/// inputs it was built from, a fingerprint of the files it left and the warnings it printed; in
/// `pages`, for every page, the fingerprint of what its rendering read and the hash of what it
/// wrote (binary records, read by mapping the file), under the state of the content they were
/// made of; in `readers`, which pages read which stories' content (``KeptReaders``). A build
/// that finds nothing changed reads only the first, small file.
///
/// A cache whose key differs (another storysite version, template or setting) is ignored; a
/// missing or unreadable one just means a full build.
struct BuildCache: Sendable {
    /// One page as last rendered.
    struct Page: Sendable, Equatable {
        /// ``BuildPageFingerprints`` of the page's render inputs; ``unknownFingerprint`` for a page
        /// rendered by a content edit's way, which fingerprints no page.
        var fingerprint: String
        var path: String
        /// The written file's content hash, as in the manifest.
        var hash: String
        var missingComponents: [String]
        var warnings: [Warning]
    }

    /// A warning found while rendering, or by the build as a whole.
    struct Warning: Sendable, Equatable, Hashable {
        var location: String
        var message: String
    }

    static let relativePath = ".storysite/cache.json"
    static let pagesRelativePath = ".storysite/pages"
    /// Version 2: the records name the state of the content and the readers they go with.
    static let pagesMagic = "storysite pages 2\n"

    /// ``BuildInputs/key``: storysite version, settings and templates.
    var key: String
    /// ``BuildInputs/content`` when the source is a folder.
    var content: String?
    /// ``FolderFingerprint`` of the output folder after the write.
    var output: String?
    var storyCount: Int
    var pageCount: Int
    var fileCount: Int
    /// Every warning the build printed, to print again when nothing changed.
    var warnings: [Warning]
    /// The fingerprint of the sitemap's entries (``SiteOutput/Sitemap/fingerprint(of:baseURL:)``),
    /// so that the next build may keep a sitemap that would come out the same; nil without one.
    var sitemap: String?
    /// By story UUID; empty as ``read(in:key:)`` returns the cache (see ``readingPages(in:)``).
    var pages: [String: Page] = [:]
    /// The page records' file as ``readingPages(in:)`` read it: the next write copies from it
    /// the records of the pages kept as they were.
    var pagesRead: PagesRead?
    /// The state of the content the page records were made of (``ContentEdit/state(of:)``); nil
    /// when not known (a build that noted no readers).
    var contentState: String?
    /// The state of the content the kept readers were noted from, when the page records go with
    /// readers: the pages are those they were noted for, each page's record either made then or
    /// by a build that rendered the pages reading what its content edit changed.
    var readersState: String?
    /// The readers ``readersState`` names, as ``readingPages(in:)`` read them; nil when missing
    /// or not those.
    var readers: KeptReaders?

    /// A page records' file as read, for a write that continues it.
    struct PagesRead: @unchecked Sendable {
        // Safe to share: never changed once read.
        let bytes: Data
        /// A writer that continues the file's string table, so that its records can be copied as they are.
        let writer: ByteRecordWriter
        /// Each record's page and where the record is, in the file's order: the order of the
        /// pages' bytes, each record right after the one before.
        let records: [(page: String, range: Range<Int>)]

        /// The place of `page`'s record among ``records``; nil when the file has none.
        func place(of page: String) -> Int? {
            var low = 0, high = records.count
            while low < high {
                let middle = (low + high) / 2
                if records[middle].page.utf8Precedes(page) { low = middle + 1 } else { high = middle }
            }
            return low < records.count && records[low].page == page ? low : nil
        }
    }

    /// The cache in `output` without its page records, when it was written with `key`; nil when
    /// missing, corrupt or stale.
    static func read(in output: URL, key: String) -> BuildCache? {
        func count(_ name: String, in object: JSONObject) -> Int? { object[name]?.numberValue.flatMap(Int.init(exactly:)) }
        guard let object = readObject(output.appendingPathComponent(relativePath)), object["key"]?.stringValue == key,
              let storyCount = count("storyCount", in: object), let pageCount = count("pageCount", in: object),
              let fileCount = count("fileCount", in: object),
              let warnings = object["warnings"]?.arrayValue.flatMap({ every($0.map(Warning.init(json:))) }) else { return nil }
        return BuildCache(
            key: key, content: object["content"]?.stringValue, output: object["output"]?.stringValue,
            storyCount: storyCount, pageCount: pageCount, fileCount: fileCount, warnings: warnings,
            sitemap: object["sitemap"]?.stringValue)
    }

    /// The cache with its page records read from `output` (none when they are missing, corrupt
    /// or were written under another key: those pages just render again), and the readers they
    /// name.
    func readingPages(in output: URL) -> BuildCache {
        var cache = self
        guard let data = try? Data(contentsOf: output.appendingPathComponent(Self.pagesRelativePath), options: .alwaysMapped) else {
            return cache
        }
        let read = data.withUnsafeBytes { buffer -> ([String: Page], PagesRead?, states: (String?, String?))? in
            guard var reader = ByteRecordReader(buffer, magic: Self.pagesMagic), reader.string() == key,
                  let contentState = reader.optionalString(), let readersState = reader.optionalString(),
                  let count = reader.count() else { return nil }
            var pages: [String: Page] = [:]
            pages.reserveCapacity(count)
            var records: [(page: String, range: Range<Int>)] = []
            records.reserveCapacity(count)
            for _ in 0..<count {
                let start = reader.offset
                guard let story = reader.inlineString(), let page = Page(from: &reader) else { return nil }
                pages[story] = page
                records.append((story, start..<reader.offset))
            }
            guard reader.isAtEnd else { return nil }
            let continued = reader.isWorthContinuing
                ? PagesRead(bytes: data, writer: ByteRecordWriter(magic: Self.pagesMagic, continuing: reader), records: records) : nil
            return (pages, continued, (contentState, readersState))
        }
        if let (pages, pagesRead, (contentState, readersState)) = read {
            cache.pages = pages
            cache.pagesRead = pagesRead
            cache.contentState = contentState
            cache.readersState = readersState
            cache.readers = readersState.flatMap { KeptReaders.read(in: output, key: key, state: $0) }
        }
        return cache
    }

    /// Saves the cache in `output`, each file atomically: a reader sees old or new files, and a
    /// page record is only ever used for a file whose hash it matches. Page records are in the
    /// order of their story UUIDs' bytes. With the file of the last build's records,
    /// `continuing`, and the pages whose records are not that file's, `renewed`, the others are
    /// written as they are there. The `readers` noted are written before the records that name
    /// them; without, and with records that name none, the readers kept are removed.
    func write(in output: URL, continuing previous: PagesRead? = nil, renewed: Set<String> = [], readers: KeptReaders? = nil) throws {
        let folder = output.appendingPathComponent(Self.relativePath).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let readers {
            try readers.write(in: output, key: key)
        } else if readersState == nil {
            KeptReaders.remove(in: output)
        }
        let records = previous.flatMap { pageRecords(continuing: $0, renewed: renewed) } ?? pageRecords()
        try records.write(to: output.appendingPathComponent(Self.pagesRelativePath))
        // The page records as JSON, which earlier versions wrote, stand for nothing now.
        try? FileManager.default.removeItem(at: output.appendingPathComponent(".storysite/pages.json"))
        let summary = JSONValue.object(JSONObject([
            "key": .string(key), "content": content.map(JSONValue.string) ?? .null, "output": self.output.map(JSONValue.string) ?? .null,
            "storyCount": .number(Double(storyCount)), "pageCount": .number(Double(pageCount)),
            "fileCount": .number(Double(fileCount)), "warnings": .array(warnings.map(\.json)),
            "sitemap": sitemap.map(JSONValue.string) ?? .null,
        ]))
        try Data(summary.jsonBytes()).write(to: output.appendingPathComponent(Self.relativePath), options: .atomic)
    }

    /// The page records' file, every record encoded.
    private func pageRecords() -> FileChunks {
        var records = ByteRecordWriter(magic: Self.pagesMagic)
        writeHeader(into: &records)
        for index in ByteOrder.sortedIndices(of: pages) {
            records.inlineString(pages[index].key)
            pages[index].value.write(into: &records)
        }
        return records.file
    }

    /// The page records' file as a continuation of the one `read`, when the pages are those it
    /// holds records of, only the `renewed` ones given records of their own since: the runs of
    /// records between theirs are written as they are in `read`. Sorting and encoding every
    /// page's record cost a one-story rebuild of 10,000 pages 2% of its time. Nil when the
    /// pages are others.
    func pageRecords(continuing read: PagesRead, renewed: Set<String>) -> FileChunks? {
        guard pages.count == read.records.count else { return nil }
        var places: [Int] = []
        places.reserveCapacity(renewed.count)
        for page in renewed {
            guard let place = read.place(of: page), pages[page] != nil else { return nil }
            places.append(place)
        }
        places.sort()
        var records = read.writer
        writeHeader(into: &records)
        let region = (read.records.first?.range.lowerBound ?? 0)..<(read.records.last?.range.upperBound ?? 0)
        records.append(records: region, of: read.bytes, replacing: places.map { read.records[$0].range }) { records, index in
            let page = read.records[places[index]].page
            records.inlineString(page)
            pages[page]!.write(into: &records)
        }
        return records.file
    }

    /// What the page records' file says before its records: the key, the states of the content
    /// the records were made of and of the readers they go with, and how many records follow.
    private func writeHeader(into records: inout ByteRecordWriter) {
        records.string(key)
        records.optionalString(contentState)
        records.optionalString(readersState)
        records.number(pages.count)
    }

    private static func readObject(_ url: URL) -> JSONObject? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return (try? JSONValue(parsing: data))?.objectValue
    }
}

extension BuildCache.Page {
    /// The fingerprint a page rendered by a content edit's way is recorded with (see
    /// ``SiteGenerator``): it matches none, so the next build that fingerprints the pages
    /// renders it again, and keeps its file (the bytes are the same).
    static let unknownFingerprint = ""

    /// The record of the page at `path` just rendered, into a file with content hash `hash`.
    /// Broken links are left out of its warnings: the link check reports them for the whole site.
    init(fingerprint: String, path: String, rendered: RenderedPage, hash: String) {
        self.init(
            fingerprint: fingerprint, path: path, hash: hash, missingComponents: rendered.missingComponents,
            warnings: rendered.warnings.filter { $0.kind != .brokenLink }.map {
                BuildCache.Warning(location: "\($0.story): \($0.fieldPath)", message: $0.message)
            })
    }

    /// A page's record: its fingerprint, path and hash in place (each page has its own), then
    /// its missing components and warnings from the string table (pages share them).
    init?(from reader: inout ByteRecordReader) {
        guard let fingerprint = reader.inlineString(), let path = reader.inlineString(), let hash = reader.inlineString(),
              let missingCount = reader.count() else { return nil }
        var missing: [String] = []
        for _ in 0..<missingCount {
            guard let component = reader.string() else { return nil }
            missing.append(component)
        }
        guard let warningCount = reader.count() else { return nil }
        var warnings: [BuildCache.Warning] = []
        for _ in 0..<warningCount {
            guard let location = reader.string(), let message = reader.string() else { return nil }
            warnings.append(BuildCache.Warning(location: location, message: message))
        }
        self.init(fingerprint: fingerprint, path: path, hash: hash, missingComponents: missing, warnings: warnings)
    }

    func write(into writer: inout ByteRecordWriter) {
        writer.inlineString(fingerprint)
        writer.inlineString(path)
        writer.inlineString(hash)
        writer.number(missingComponents.count)
        for component in missingComponents { writer.string(component) }
        writer.number(warnings.count)
        for warning in warnings {
            writer.string(warning.location)
            writer.string(warning.message)
        }
    }
}

extension BuildCache.Warning {
    init?(json: JSONValue) {
        guard let location = json["location"]?.stringValue, let message = json["message"]?.stringValue else { return nil }
        self.init(location: location, message: message)
    }

    var json: JSONValue { .object(JSONObject(["location": .string(location), "message": .string(message)])) }
}

/// The values, when every one is there; nil when any is missing (a record that cannot be read).
private func every<Value>(_ values: [Value?]) -> [Value]? {
    values.contains(where: { $0 == nil }) ? nil : values.compactMap { $0 }
}
