import Foundation

/// Checks one scanned page's links against the site as a static host serves it (see
/// ``SiteIndex``), after resolving each against the page or its `<base href>`; what can only
/// be known once every page is scanned (anchors elsewhere, external URLs) is left in the outcome.
struct PageLinkCheck {
    /// What decides verdicts beyond the files themselves.
    struct Settings: Sendable {
        var hostDependentSeverity: Finding.Severity
        var checkExternal: Bool
        var siteAddress: SiteAddress?
    }

    let site: SiteIndex
    let settings: Settings
    /// The page's path from the site root.
    let path: ByteString

    /// What relative links of a page resolve against.
    private enum DocumentBase {
        /// A document on the site (the page itself, or an internal `<base href>`).
        case site(SiteDocument)
        /// A `<base href>` elsewhere: every relative link is then external.
        case external(URL)
    }

    func run(_ page: ScannedPage) -> PageOutcome {
        var outcome = PageOutcome(anchors: page.anchors)
        let base = documentBase(page.baseHref)
        for (order, link) in page.links.enumerated() {
            check(Link(scanned: link, order: order), base: base, into: &outcome)
        }
        for duplicate in page.duplicateIDs {
            let reason = "duplicate id '\(duplicate.id)' (first on line \(duplicate.firstLine))"
            outcome.findings.add(.init(resolved: duplicate.id, reason: reason)) {
                .init(finding: finding(.warning, line: duplicate.line, target: "#\(duplicate.id)", reason: reason), order: page.links.count)
            }
        }
        return outcome
    }

    /// A scanned link and its position among the page's links.
    private struct Link {
        var scanned: ScannedPage.Link
        var order: Int
        var value: [UInt8] { scanned.value }
        var line: Int { scanned.line }
    }

    /// A document on the site and the folder its relative links resolve against.
    private struct SiteDocument {
        var path: SitePath
        var directory: [UInt8]

        init(_ path: SitePath) {
            self.path = path
            directory = path.directory
        }
    }

    private static let siteRoot = SiteDocument(SitePath(bytes: []))

    private func documentBase(_ href: [UInt8]?) -> DocumentBase {
        let pageDocument = SiteDocument(SitePath(bytes: path.bytes))
        let page = DocumentBase.site(pageDocument)
        guard let href else { return page }
        let text = LinkText(href)
        switch text.form {
        case .reference(let path, _):
            return path.isEmpty ? page : .site(SiteDocument(SitePath.resolve(path, against: pageDocument.directory)))
        case .absolute(_, let absolute), .networkPath(let absolute):
            if let rooted = settings.siteAddress?.rootRelative(absolute) {
                return .site(SiteDocument(SitePath.resolve(rooted[...], against: [])))
            }
            return URL(string: String(decoding: absolute, as: UTF8.self)).map(DocumentBase.external) ?? page
        case .empty, .bareHash, .notALink:
            return page
        }
    }

    private func check(_ link: Link, base: DocumentBase, into outcome: inout PageOutcome) {
        let text = LinkText(link.value)
        switch text.form {
        case .notALink:
            return
        case .empty:
            outcome.checkedLinks += 1
            addFinding(.warning, link, resolved: [], reason: "empty link (an unresolved link?)", to: &outcome)
        case .bareHash:
            outcome.checkedLinks += 1
            addFinding(.warning, link, resolved: [], reason: "'#' leads nowhere (an unresolved link?)", to: &outcome)
        case .absolute(let scheme, let absolute):
            if let rooted = settings.siteAddress?.rootRelative(absolute) {
                checkInternal(LinkText(rooted), link, document: Self.siteRoot, into: &outcome)
            } else if scheme == "http" || scheme == "https" {
                addExternal(URL(string: String(decoding: Self.withoutFragment(absolute), as: UTF8.self)), link, into: &outcome)
            }
        case .networkPath(let absolute):
            let withScheme = Array("https:".utf8) + absolute
            if let rooted = settings.siteAddress?.rootRelative(withScheme) {
                checkInternal(LinkText(rooted), link, document: Self.siteRoot, into: &outcome)
            } else {
                addExternal(URL(string: String(decoding: Self.withoutFragment(withScheme), as: UTF8.self)), link, into: &outcome)
            }
        case .reference:
            switch base {
            case .site(let document):
                if let rooted = settings.siteAddress?.withinSitePath(text.text) {
                    checkInternal(LinkText(rooted), link, document: Self.siteRoot, into: &outcome)
                } else {
                    checkInternal(text, link, document: document, into: &outcome)
                }
            case .external(let baseURL):
                let relative = String(decoding: Self.withoutFragment(text.text), as: UTF8.self)
                addExternal(URL(string: relative, relativeTo: baseURL)?.absoluteURL, link, into: &outcome)
            }
        }
    }

    /// Checks a link whose text is a reference (a path, query and fragment) on the site.
    private func checkInternal(_ text: LinkText, _ link: Link, document: SiteDocument, into outcome: inout PageOutcome) {
        guard case .reference(let referencePath, let fragment) = text.form else { return }
        outcome.checkedLinks += 1
        let target = referencePath.isEmpty ? document.path : SitePath.resolve(referencePath, against: document.directory)
        // What a finding is about: links to one file with different fragments are different findings.
        var resolved: [UInt8] {
            guard let fragment else { return target.bytes }
            return target.bytes + [UInt8(ascii: "#")] + fragment
        }

        switch site.lookup(target) {
        case .missing(let missing):
            addFinding(.broken, link, resolved: resolved, reason: Self.reason(missing), to: &outcome)
        case .onlyWithExtension(let file):
            let reason = "no file '\(ByteString(target.bytes))'; only hosts that add '.html' serve '\(file)'"
            addFinding(settings.hostDependentSeverity, link, resolved: resolved, reason: reason, to: &outcome)
        case .file(let file):
            if target.hasEncodedSlash {
                let reason = "'%2F' in a path segment: hosts differ on whether it separates folders"
                addFinding(settings.hostDependentSeverity, link, resolved: resolved, reason: reason, to: &outcome)
                return
            }
            if let fragment, Fragment.needsAnchor(fragment), let page = site.pageNumbers[file] {
                if file == path {
                    if !Fragment.isFound(fragment, in: outcome.anchors) {
                        let reason = "no id or <a name> '\(ByteString(Array(fragment)))' on this page"
                        addFinding(.broken, link, resolved: resolved, reason: reason, to: &outcome)
                    }
                } else {
                    let fragment = Array(fragment)
                    outcome.fragmentLinks.add(.init(page: page, fragment: fragment)) {
                        .init(order: link.order, page: page, fragment: fragment, value: link.value, line: link.line)
                    }
                }
            }
            if text.hasRawSpace {
                addFinding(.warning, link, resolved: resolved, reason: "raw space in the link; write it as %20", to: &outcome)
            }
            if text.hasBackslash {
                addFinding(.warning, link, resolved: resolved, reason: "backslash in the path; browsers read it as '/', write '/'", to: &outcome)
            }
        }
    }

    private func addExternal(_ url: URL?, _ link: Link, into outcome: inout PageOutcome) {
        guard settings.checkExternal else { return }
        outcome.checkedLinks += 1
        guard let url else {
            addFinding(.broken, link, resolved: link.value, reason: "not a valid URL", to: &outcome)
            return
        }
        outcome.externalLinks.add(url.absoluteString) { .init(order: link.order, url: url, value: link.value, line: link.line) }
    }

    private func addFinding(_ severity: Finding.Severity, _ link: Link, resolved: [UInt8], reason: String, to outcome: inout PageOutcome) {
        outcome.findings.add(.init(resolved: ByteString(resolved), reason: reason)) {
            .init(finding: finding(severity, line: link.line, target: Self.written(link), reason: reason), order: link.order)
        }
    }

    private func finding(_ severity: Finding.Severity, line: Int, target: String, reason: String) -> Finding {
        Finding(severity: severity, source: path.description, location: .line(line), target: target, reason: reason)
    }

    private static func reason(_ missing: SiteIndex.Missing) -> String {
        switch missing {
        case .noSuchPath(let path): return path.bytes.last == UInt8(ascii: "/") ? "no folder '\(path)'" : "no file or folder '\(path)'"
        case .folderWithoutIndex(let folder):
            return folder.bytes.isEmpty ? "the site root has no index.html" : "folder '\(folder)' has no index.html"
        case .fileIsNotAFolder(let file): return "'\(file)' is a file, not a folder"
        }
    }

    private static func written(_ link: Link) -> String {
        String(decoding: link.value, as: UTF8.self)
    }

    private static func withoutFragment(_ text: [UInt8]) -> ArraySlice<UInt8> {
        text[..<(text.firstIndex(of: UInt8(ascii: "#")) ?? text.endIndex)]
    }
}
