internal import CLibXML2

/// Reads one HTML page with libxml2's HTML parser in SAX mode (no tree is built) and keeps what
/// link checking needs (see ``ScannedPage``).
///
/// Parser choice: libxml2 2.9.14's HTML parser over gumbo 0.10.1 (both from Debian), measured
/// on this machine (one core, a 5 KB page with 40 links, HTML5 elements):
///
/// | | µs per page | MB/s |
/// |---|---|---|
/// | libxml2, SAX (this file) | 44 | 117 |
/// | libxml2, tree (`htmlReadMemory`) | 83 | 62 |
/// | gumbo, tree walk | 190 | 27 |
///
/// gumbo alone would spend about 1 s of the 10,000-page benchmark's budget on two cores. On
/// correctness, both keep `&copy=` in an attribute literal, decode `&amp;` and `&#x2E;`,
/// parse `<noscript>` content as elements, treat `<script>` and comments as text, and parse
/// 12 MB text nodes, attributes, comments and scripts and 5,000-deep nesting completely.
/// libxml2, being HTML4-era, differs from HTML5 in ways handled here instead:
/// - `<template>`, `<title>`, `<textarea>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>` and
///   `<plaintext>` content arrives as elements; this scanner ignores what they contain (see
///   ``HTMLElement/hidesContent``), as browsers do (their own attributes still count);
/// - without `HTML_PARSE_RECOVER`, a script's text ends at any `</` followed by a letter;
/// - a page without a declared charset is read as ISO-8859-1 unless the context is told
///   UTF-8 first (then `<meta charset>` still switches it);
/// - line numbers are those where a start tag ends (gumbo gives where it starts).
/// gumbo reads UTF-8 only and needs no such care, but costs 4× the time.
final class PageScanner {
    private var page = ScannedPage()
    private var parser: htmlParserCtxtPtr?
    /// How many content-hiding elements enclose the current position.
    private var hiddenDepth = 0
    /// The CSS of the `<style>` element the parser is in, so far; nil outside one.
    private var styleText: [UInt8]?

    /// libxml2 must be initialised once before parsers run on several threads.
    private static let initializeLibXML2: Void = xmlInitParser()

    private static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue)

    /// Scans a whole page held in memory.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> ScannedPage {
        _ = initializeLibXML2
        let scanner = PageScanner()
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= Int(Int32.max),
              let parser = htmlCreateMemoryParserCtxt(base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        else { return scanner.page }
        defer { htmlFreeParserCtxt(parser) }
        scanner.parser = parser
        installHandler(parser.pointee.sax)
        parser.pointee.userData = Unmanaged.passUnretained(scanner).toOpaque()
        parser.pointee.charset = Int32(XML_CHAR_ENCODING_UTF8.rawValue)
        htmlCtxtUseOptions(parser, options)
        withExtendedLifetime(scanner) { _ = htmlParseDocument(parser) }
        return scanner.page
    }

    /// Start and end tags, and the text of `<script>` and `<style>` elements (libxml2 hands
    /// only those to `cdataBlock`, so other text costs no call); errors go nowhere (libxml2
    /// would print them otherwise).
    private static func installHandler(_ sax: UnsafeMutablePointer<htmlSAXHandler>) {
        var handler = htmlSAXHandler()
        handler.startElement = { context, name, attributes in
            guard let context, let name else { return }
            Unmanaged<PageScanner>.fromOpaque(context).takeUnretainedValue().start(name, attributes)
        }
        handler.endElement = { context, name in
            guard let context, let name else { return }
            Unmanaged<PageScanner>.fromOpaque(context).takeUnretainedValue().end(name)
        }
        handler.cdataBlock = { context, text, length in
            guard let context, let text, length > 0 else { return }
            Unmanaged<PageScanner>.fromOpaque(context).takeUnretainedValue().text(UnsafeBufferPointer(start: text, count: Int(length)))
        }
        handler.serror = { _, _ in }
        handler.initialized = XML_SAX2_MAGIC
        sax.pointee = handler
    }

    private var line: Int {
        parser.map { Int($0.pointee.input.pointee.line) } ?? 0
    }

    private func start(_ name: UnsafePointer<xmlChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        let element = HTMLElement(name: name)
        defer { if element.hidesContent { hiddenDepth += 1 } }
        if element == .style, hiddenDepth == 0 { styleText = [] }
        guard hiddenDepth == 0, let attributes else { return }

        var values = ElementAttributes()
        var index = 0
        while let attributeName = attributes[index] {
            values.take(attributeName, attributes[index + 1])
            index += 2
        }
        let line = self.line
        if let style = values.style {
            for reference in CSSURLs.references(style) { page.links.append(.init(value: reference.value, line: line)) }
        }
        if let id = values.id, id.count > 0 {
            let id = ByteString(Array(id))
            if let firstLine = page.anchors.addID(id, line: line) {
                page.duplicateIDs.append(.init(id: id, line: line, firstLine: firstLine))
            }
        }

        switch element {
        case .a:
            if let name = values.name, name.count > 0 { page.anchors.addName(ByteString(Array(name))) }
            addLink(values.href, line: line)
        case .area:
            addLink(values.href, line: line)
        case .link:
            if !LinkRelation.isConnectionHint(values.rel) { addLink(values.href, line: line) }
        case .img, .source:
            addLink(values.src, line: line)
            if let srcset = values.srcset {
                for candidate in Srcset.candidateURLs(srcset) { page.links.append(.init(value: candidate, line: line)) }
            }
        case .script, .iframe, .audio:
            addLink(values.src, line: line)
        case .video:
            addLink(values.src, line: line)
            addLink(values.poster, line: line)
        case .meta:
            if let equiv = values.httpEquiv, equiv.count == 7, equiv.elementsEqual("refresh".utf8, by: { $0 | 0x20 == $1 }),
               let content = values.content, let url = MetaRefresh.url(inContent: content) {
                page.links.append(.init(value: url, line: line))
            }
        case .base:
            if page.baseHref == nil, let href = values.href { page.baseHref = Array(href) }
        case .template, .title, .textarea, .xmp, .noembed, .noframes, .plaintext, .style, .other:
            break
        }
    }

    private func end(_ name: UnsafePointer<xmlChar>) {
        let element = HTMLElement(name: name)
        if element == .style, let css = styleText {
            styleText = nil
            addStyleLinks(css)
        }
        if hiddenDepth > 0, element.hidesContent { hiddenDepth -= 1 }
    }

    /// A chunk of a `<script>` or `<style>` element's text (libxml2 hands it over in pieces of
    /// about 1,000 bytes); a style's is kept until the element ends.
    private func text(_ chunk: UnsafeBufferPointer<UInt8>) {
        styleText?.append(contentsOf: chunk)
    }

    /// The `url(…)`s of a `<style>` element that ends on the current line, each on its own line.
    private func addStyleLinks(_ css: [UInt8]) {
        css.withUnsafeBufferPointer { css in
            let references = CSSURLs.references(css)
            guard !references.isEmpty else { return }
            var linesAfter = css.count { $0 == 0x0A }
            var counted = 0
            for reference in references {
                linesAfter -= css[counted..<reference.offset].count { $0 == 0x0A }
                counted = reference.offset
                page.links.append(.init(value: reference.value, line: line - linesAfter))
            }
        }
    }

    private func addLink(_ value: UnsafeBufferPointer<UInt8>?, line: Int) {
        if let value { page.links.append(.init(value: Array(value), line: line)) }
    }

}

/// The attributes of one start tag that link checking reads, as views into libxml2's buffers
/// (valid during the callback only). An attribute without a value (`<a href>`) reads as empty.
private struct ElementAttributes {
    var id, name, href, src, srcset, style, poster, rel, httpEquiv, content: UnsafeBufferPointer<UInt8>?

    mutating func take(_ name: UnsafePointer<xmlChar>, _ value: UnsafePointer<xmlChar>?) {
        func text() -> UnsafeBufferPointer<UInt8> {
            value.map { UnsafeBufferPointer(start: $0, count: cStringLength($0)) } ?? UnsafeBufferPointer(start: nil, count: 0)
        }
        switch name[0] {
        case UInt8(ascii: "i"): if cStringEquals(name, "id") { id = text() }
        case UInt8(ascii: "n"): if cStringEquals(name, "name") { self.name = text() }
        case UInt8(ascii: "h"):
            if cStringEquals(name, "href") { href = text() } else if cStringEquals(name, "http-equiv") { httpEquiv = text() }
        case UInt8(ascii: "s"):
            if cStringEquals(name, "src") {
                src = text()
            } else if cStringEquals(name, "srcset") {
                srcset = text()
            } else if cStringEquals(name, "style") {
                style = text()
            }
        case UInt8(ascii: "p"): if cStringEquals(name, "poster") { poster = text() }
        case UInt8(ascii: "r"): if cStringEquals(name, "rel") { rel = text() }
        case UInt8(ascii: "c"): if cStringEquals(name, "content") { content = text() }
        default: break
        }
    }
}

/// The length of a NUL-terminated libxml2 string.
private func cStringLength(_ string: UnsafePointer<xmlChar>) -> Int {
    var length = 0
    while string[length] != 0 { length += 1 }
    return length
}
