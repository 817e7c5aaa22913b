import Foundation

/// Checks the links of a folder of HTML as deployed at the root of a static host: every
/// internal `href`, `src`, `srcset` candidate, `<link href>`, `poster` and refresh URL must
/// lead to a file (a folder meaning its `index.html`), and every `#fragment` to an `id` or
/// `<a name>` in the target page. See `link-edge-cases.md` for the verdict on each case.
///
/// Pages are parsed in parallel (bounded by ``Options/parallelism``) and reduced at once to
/// their anchors and the few links that need another page's anchors or the network; documents
/// are never kept. Findings come in a stable order: pages by path, then by line.
public struct HTMLFolderCheck: Sendable {
    /// What the check does beyond the local files.
    public struct Options: Sendable {
        /// Whether links that work only on some hosts (`page` served as `page.html`, `%2F` in a
        /// segment) are broken; otherwise they are warnings.
        public var treatHostDependentAsBroken: Bool
        /// Whether `http(s)` links are checked over the network (with the check's
        /// ``ExternalLinkCheck``).
        public var checkExternal: Bool
        /// The site's public address (`--base-url`): absolute links to it are internal links.
        public var siteURL: URL?
        /// How many pages are parsed at once.
        public var parallelism: Int

        public init(
            treatHostDependentAsBroken: Bool = true, checkExternal: Bool = false, siteURL: URL? = nil,
            parallelism: Int = ProcessInfo.processInfo.activeProcessorCount
        ) {
            self.treatHostDependentAsBroken = treatHostDependentAsBroken
            self.checkExternal = checkExternal
            self.siteURL = siteURL
            self.parallelism = max(1, parallelism)
        }
    }

    public var options: Options
    /// Checks `http(s)` URLs when ``Options/checkExternal`` is on.
    public var externalCheck: ExternalLinkCheck

    public init(options: Options = Options(), externalCheck: ExternalLinkCheck = ExternalLinkCheck()) {
        self.options = options
        self.externalCheck = externalCheck
    }

    /// Checks the HTML files (`.html`, `.htm`) of `folder` against every file in it. Findings'
    /// sources are paths relative to `folder`.
    public func check(folder: URL) async throws -> CheckReport {
        let listing = try FolderListing(folder)
        let pages = listing.pages
        let site = SiteIndex(files: listing.files, emptyFolders: listing.folders, pages: pages)
        return await check(site: site, pages: pages) { number in try listing.read(pages[number]) }
    }

    /// Checks pages held in memory (a site rendered but not written): `pages` maps each page's
    /// path relative to the site root (`blog/post/index.html`) to its HTML; `otherFiles` are
    /// the paths of every other file the site will have (assets). Every page is parsed, whatever
    /// its name.
    public func check(pages: [String: Data], otherFiles: Set<String>) async -> CheckReport {
        let named = pages.map { (ByteString(Self.relative($0.key)), $0.value) }.sorted { $0.0 < $1.0 }
        let paths = named.map(\.0)
        let contents = named.map(\.1)
        let files = Set(paths).union(otherFiles.map { ByteString(Self.relative($0)) })
        let site = SiteIndex(files: files, pages: paths)
        return await check(site: site, pages: paths) { number in [UInt8](contents[number]) }
    }

    private static func relative(_ path: String) -> String {
        String(path.drop { $0 == "/" })
    }

    private static let pagesPerTask = 16

    private func check(site: SiteIndex, pages: [ByteString], read: @escaping @Sendable (Int) throws -> [UInt8]) async -> CheckReport {
        let outcomes = await scan(site: site, pages: pages, read: read)
        let statuses = options.checkExternal ? await externalCheck.check(outcomes.flatMap { $0.externalLinks.entries.map(\.item.url) }) : [:]
        let findings = outcomes.indices.flatMap { Self.findings(ofPage: $0, outcomes: outcomes, pages: pages, statuses: statuses) }
        var unchecked = 0
        var uncheckedReason: String?
        for (link, occurrences) in outcomes.lazy.flatMap(\.externalLinks.entries) {
            guard case .unchecked(let reason)? = statuses[link.url] else { continue }
            unchecked += occurrences
            uncheckedReason = uncheckedReason ?? reason
        }
        return CheckReport(
            findings: findings, pages: pages.count, links: outcomes.reduce(0) { $0 + $1.checkedLinks } - unchecked,
            unchecked: unchecked, uncheckedReason: uncheckedReason)
    }

    /// Reads, parses and checks every page, in parallel batches; the outcomes in page order.
    private func scan(site: SiteIndex, pages: [ByteString], read: @escaping @Sendable (Int) throws -> [UInt8]) async -> [PageOutcome] {
        let settings = PageLinkCheck.Settings(
            hostDependentSeverity: options.treatHostDependentAsBroken ? .broken : .warning,
            checkExternal: options.checkExternal,
            siteAddress: options.siteURL.flatMap(SiteAddress.init))
        let batches = stride(from: 0, to: pages.count, by: Self.pagesPerTask).map { $0..<min($0 + Self.pagesPerTask, pages.count) }
        return await concurrentMap(batches, limit: options.parallelism) { batch in
            batch.map { number in
                let check = PageLinkCheck(site: site, settings: settings, path: pages[number])
                do {
                    return check.run(try read(number).withUnsafeBytes(PageScanner.scan))
                } catch {
                    return PageOutcome(unreadable: pages[number], error: error)
                }
            }
        }.flatMap { $0 }
    }

    /// The findings of one page, now that every page's anchors and every external URL's status are known.
    private static func findings(
        ofPage number: Int, outcomes: [PageOutcome], pages: [ByteString], statuses: [URL: ExternalLinkStatus]
    ) -> [Finding] {
        let outcome = outcomes[number]
        let source = pages[number].description
        var pageFindings = outcome.findings.entries.map { entry in
            var ordered = entry.item
            ordered.finding.occurrences = entry.occurrences
            return ordered
        }
        for (link, occurrences) in outcome.fragmentLinks.entries where !Fragment.isFound(link.fragment[...], in: outcomes[link.page].anchors) {
            let finding = Finding(
                severity: .broken, source: source, location: .line(link.line), target: String(decoding: link.value, as: UTF8.self),
                reason: "no id or <a name> '\(ByteString(link.fragment))' in '\(pages[link.page])'", occurrences: occurrences)
            pageFindings.append(.init(finding: finding, order: link.order))
        }
        for (link, occurrences) in outcome.externalLinks.entries {
            guard let status = statuses[link.url], let severity = status.severity else { continue }
            let finding = Finding(
                severity: severity, source: source, location: .line(link.line), target: String(decoding: link.value, as: UTF8.self),
                reason: status.description, occurrences: occurrences)
            pageFindings.append(.init(finding: finding, order: link.order))
        }
        return inLineOrder(pageFindings)
    }

    /// A page's findings by line, then in document order (several findings about one link
    /// in the order they were made).
    private static func inLineOrder(_ findings: [PageOutcome.OrderedFinding]) -> [Finding] {
        findings.enumerated().sorted { left, right in
            let leftKey = (Self.line(left.element.finding), left.element.order, left.offset)
            let rightKey = (Self.line(right.element.finding), right.element.order, right.offset)
            return leftKey < rightKey
        }.map(\.element.finding)
    }

    private static func line(_ finding: Finding) -> Int {
        if case .line(let line)? = finding.location { return line }
        return 0
    }
}
