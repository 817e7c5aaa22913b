import Foundation
@testable import Mustache
@testable import Preview
import SiteOutput
import StoryModel
import StoryRender

/// The URL and slug normalisers, each against the promise its documentation makes. The first
/// byte picks the function; the rest of the input is its text (or drives the text it is given).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLs(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBytes(data, size)
    guard let choice = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    let text = String(decoding: rest, as: UTF8.self)
    switch choice % 8 {
    case 0: checkTextSlug(text, maximumBytes: rest.first.map { Int($0) } ?? .max)
    case 1: checkPageLocation(text)
    case 2: checkObfuscatedScriptURL(rest)
    case 3: checkURLSafety(text)
    case 4: checkRelativeURL(rest)
    case 5: checkPercentDecoding(rest)
    case 6: checkRequestPath(text)
    default: checkServerPercentDecoding(rest)
    }
    return 0
}

/// ``TextSlug`` and ``TagSlug``: nil, or letters, digits, marks and single inner `-`, within
/// the byte limit, and a tag page whose location is a safe one.
private func checkTextSlug(_ text: String, maximumBytes: Int) {
    for (slug, limit) in [(TextSlug.slug(of: text, maximumBytes: maximumBytes), maximumBytes), (TagSlug.slug(for: text), 100)] {
        guard let slug else { continue }
        require(!slug.isEmpty && slug.utf8.count <= limit, "slug '\(slug)' of '\(text)' is empty or longer than \(limit) bytes")
        require(!slug.hasPrefix("-") && !slug.hasSuffix("-") && !slug.contains("--"), "slug '\(slug)' of '\(text)' has a stray '-'")
        for scalar in slug.unicodeScalars where scalar != "-" {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
                 .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            default:
                require(false, "slug '\(slug)' of '\(text)' holds U+\(String(scalar.value, radix: 16, uppercase: true))")
            }
        }
        require((try? PageLocation(fullSlug: "tags/\(slug)", isHome: false)) != nil, "tag slug '\(slug)' is not a safe page path")
    }
}

/// ``PageLocation``: a slug it accepts names a file inside the output folder, never a dotfile
/// or a file storysite writes itself, and the file is the URL's `index.html`.
private func checkPageLocation(_ slug: String) {
    guard let location = try? PageLocation(fullSlug: slug, isHome: false) else { return }
    require(location.filePath == location.url + "index.html", "'\(slug)': file \(location.filePath) is not url \(location.url) + index.html")
    let segments = location.filePath.split(separator: "/", omittingEmptySubsequences: false)
    for segment in segments {
        require(!segment.isEmpty && segment != "." && segment != ".." && !segment.hasPrefix("."), "'\(slug)' gives the path \(location.filePath)")
        require(!segment.contains("\\"), "'\(slug)' gives a backslash in \(location.filePath)")
        require(!segment.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "'\(slug)' gives a control character in its path")
    }
    require(!["404.html", "sitemap.xml", "robots.txt"].contains(String(segments[0])), "'\(slug)' overwrites \(segments[0])")
    let root = URL(fileURLWithPath: "/output", isDirectory: true)
    let file = root.appendingPathComponent(location.filePath).standardizedFileURL.path
    // Bytes, not characters: a segment that starts with a combining mark joins the `/` before it
    // into one character, and `hasPrefix` compares characters.
    require(file.utf8.starts(with: "/output/".utf8), "'\(slug)' writes \(file), outside the output folder")
}

/// Script URLs spelled the ways a browser still follows (and the ways ``URLSafety`` promises to
/// see through) are refused as links and as images.
private func checkObfuscatedScriptURL(_ bytes: [UInt8]) {
    var input = bytes.makeIterator()
    let schemes = ["javascript", "vbscript", "livescript", "data"]
    let scheme = schemes[Int(input.next() ?? 0) % schemes.count]
    let payload = scheme == "data" ? ":text/html,<script>alert(1)</script>" : ":alert(1)"
    var url = ""
    // Leading spaces and C0 controls, which the URL parser strips.
    let leading = Int(input.next() ?? 0) % 4
    for _ in 0..<leading { url.unicodeScalars.append(Unicode.Scalar((input.next() ?? 0) % 0x21)) }
    for character in (scheme + ":").unicodeScalars {
        let spelling = input.next() ?? 0
        var piece = String(character)
        switch spelling % 8 {
        case 1: piece = piece.uppercased()
        case 2: piece = "\t" + piece
        case 3: piece = "\n" + piece
        case 4: piece = "&#\(character.value);"
        case 5: piece = "&#x\(String(character.value, radix: 16));"
        case 6: piece = "&#\(character.value)"
        case 7: piece = "%" + String(character.value, radix: 16)
        default: break
        }
        if character == ":" && spelling % 8 == 0 && spelling & 8 != 0 { piece = "&colon;" }
        url += piece
    }
    url += payload.dropFirst()
    require(!URLSafety.isSafeLink(url), "the script URL \(url.debugDescription) is allowed as a link")
    require(!URLSafety.isSafeImageSource(url), "the script URL \(url.debugDescription) is allowed as an image")
}

/// Images are allowed more than links, never less; and deciding twice decides the same.
private func checkURLSafety(_ url: String) {
    let link = URLSafety.isSafeLink(url)
    if link { require(URLSafety.isSafeImageSource(url), "\(url.debugDescription) is a safe link but not a safe image") }
    require(URLSafety.isSafeLink(url) == link, "deciding twice on \(url.debugDescription) disagreed")
}

/// ``RelativeURL``: the href from a page to a site URL, resolved as a browser resolves it
/// against the page, leads to that URL; and `root(of:)` leads to the site root.
private func checkRelativeURL(_ bytes: [UInt8]) {
    let halves = bytes.split(separator: UInt8(ascii: "|"), maxSplits: 1, omittingEmptySubsequences: false)
    let page = siteURL(halves.first ?? [], allowSuffix: false)
    let target = siteURL(halves.count > 1 ? halves[1] : [], allowSuffix: true)
    let site = URL(string: "https://www.example.com/site/")!
    guard let pageURL = URL(string: site.absoluteString + page) else { return }
    let href = RelativeURL.href(from: page, to: target)
    let resolved = URL(string: href, relativeTo: pageURL)?.absoluteString
    let expected = site.absoluteString + target
    require(resolved == expected, "from '\(page)', href '\(href)' to '\(target)' leads to \(resolved ?? "nothing"), not \(expected)")
    let root = URL(string: RelativeURL.root(of: page), relativeTo: pageURL)?.absoluteString
    require(root == site.absoluteString, "from '\(page)', root '\(RelativeURL.root(of: page))' leads to \(root ?? "nothing")")
}

/// A site-relative URL made of the input: segments of a few characters that are legal in a URL
/// path (never `.` or `..`, which no page URL has), a folder or a file, and maybe `#` or `?`.
private func siteURL(_ bytes: ArraySlice<UInt8>, allowSuffix: Bool) -> String {
    let alphabet = Array("ab.-:_~".unicodeScalars)
    var url = ""
    var segment = ""
    /// The URL so far with the segment being read, as a file (unless it is empty).
    func withSegment() -> String {
        url + (segment == "." || segment == ".." ? segment + "a" : segment)
    }
    func endSegment() {
        if !segment.isEmpty { url = withSegment() + "/" }
        segment = ""
    }
    for byte in bytes {
        switch byte % 16 {
        case 0..<7: segment.unicodeScalars.append(alphabet[Int(byte % 16)])
        case 7..<10: endSegment()
        case 10 where allowSuffix: return withSegment() + "#" + String(byte / 16)
        case 11 where allowSuffix: return withSegment() + "?q=" + String(byte / 16)
        default: segment.unicodeScalars.append("x")
        }
    }
    return withSegment()
}

/// Percent-decoding: any bytes, each encoded as `%XX` (in either case), decode to themselves;
/// decoding never grows the text; strict decoding agrees with lenient decoding when it succeeds.
private func checkPercentDecoding(_ bytes: [UInt8]) {
    let encoded = bytes.enumerated().flatMap { index, byte in
        Array(String(format: index % 2 == 0 ? "%%%02X" : "%%%02x", byte).utf8)
    }
    require(PercentDecoding.decode(encoded) == bytes, "decoding the encoded bytes \(bytes) did not give them back")
    let decoded = PercentDecoding.decode(bytes)
    require(decoded.count <= bytes.count, "decoding grew \(bytes) to \(decoded)")
    let text = String(decoding: bytes, as: UTF8.self)
    if let strict = PercentDecoding.strict(text[...]) {
        require(strict == String(decoding: decoded, as: UTF8.self), "strict and lenient decoding of \(text.debugDescription) disagree")
    }
}

/// A request path `serve` accepts has segments that, joined under the served folder, stay in it.
private func checkRequestPath(_ raw: String) {
    guard let path = try? SitePath(raw: raw) else { return }
    let root = URL(fileURLWithPath: "/served", isDirectory: true)
    var file = root
    for segment in path.segments {
        require(!segment.isEmpty && segment != "." && segment != ".." && !segment.contains("/"), "\(raw.debugDescription) gives the segment \(segment.debugDescription)")
        file.appendPathComponent(segment)
    }
    require(file.standardizedFileURL.path.hasPrefix("/served"), "\(raw.debugDescription) reaches \(file.path)")
    require(path.encoded.hasPrefix("/") && !path.encoded.hasPrefix("//"), "\(raw.debugDescription) redirects to \(path.encoded)")
}
