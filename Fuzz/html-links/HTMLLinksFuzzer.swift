import Foundation
@testable import LinkCheck

/// The HTML link scanner (libxml2's HTML parser in SAX mode) and the per-page link check on any
/// bytes, as the page `blog/post/index.html` of a small site with a base URL: every link and
/// finding it reports lies on a line of the page, and scanning the same page twice finds the
/// same links.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLLinks(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBytes(data, size)
    let page = bytes.withUnsafeBytes(PageScanner.scan)
    let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
    for link in page.links {
        require(link.line >= 0 && link.line <= lines, "a link on line \(link.line) of a page of \(lines) lines")
    }
    let again = bytes.withUnsafeBytes(PageScanner.scan)
    require(again.links.map(\.value) == page.links.map(\.value), "scanning the same page twice found different links")

    let outcome = fuzzCheck.run(page)
    for entry in outcome.findings.entries {
        if case .line(let line)? = entry.item.finding.location {
            require(line >= 0 && line <= lines, "a finding on line \(line) of a page of \(lines) lines: \(entry.item.finding)")
        }
    }
    for (link, _) in outcome.fragmentLinks.entries {
        _ = Fragment.isFound(link.fragment[...], in: page.anchors)
    }
    return 0
}

/// The check of the page `blog/post/index.html` on a site of a few pages and assets, published at
/// `https://www.example.com/docs/`.
private let fuzzCheck: PageLinkCheck = {
    let pages = ["index.html", "about/index.html", "blog/index.html", "blog/post/index.html", "blog/page.html"].map { ByteString($0) }
    let files = Set(pages + ["assets/style.css", "assets/a b.png", "blog/post/image.jpg"].map { ByteString($0) })
    let site = SiteIndex(files: files, emptyFolders: [ByteString("empty")], pages: pages)
    let settings = PageLinkCheck.Settings(
        hostDependentSeverity: .broken, checkExternal: true,
        siteAddress: SiteAddress(URL(string: "https://www.example.com/docs/")!))
    return PageLinkCheck(site: site, settings: settings, path: ByteString("blog/post/index.html"))
}()
