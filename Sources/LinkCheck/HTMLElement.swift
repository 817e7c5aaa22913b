/// The elements link checking treats specially, recognised from libxml2's lowercased,
/// NUL-terminated name without making a `String` (this runs for every element of every page).
enum HTMLElement {
    case a, area, link, img, source, script, iframe, video, audio, meta, base, style
    /// Elements whose content is text (or inert) in a browser, but elements to libxml2.
    case template, title, textarea, xmp, noembed, noframes, plaintext
    case other

    init(name: UnsafePointer<UInt8>) {
        var length = 0
        while name[length] != 0 {
            length += 1
            if length > 9 {
                self = .other
                return
            }
        }
        switch length {
        case 1: self = name[0] == UInt8(ascii: "a") ? .a : .other
        case 3: self = cStringEquals(name, "img") ? .img : cStringEquals(name, "xmp") ? .xmp : .other
        case 4:
            self = cStringEquals(name, "area") ? .area : cStringEquals(name, "link") ? .link
                : cStringEquals(name, "meta") ? .meta : cStringEquals(name, "base") ? .base : .other
        case 5:
            self = cStringEquals(name, "video") ? .video : cStringEquals(name, "audio") ? .audio
                : cStringEquals(name, "title") ? .title : cStringEquals(name, "style") ? .style : .other
        case 6: self = cStringEquals(name, "source") ? .source : cStringEquals(name, "script") ? .script : cStringEquals(name, "iframe") ? .iframe : .other
        case 7: self = cStringEquals(name, "noembed") ? .noembed : .other
        case 8:
            self = cStringEquals(name, "template") ? .template : cStringEquals(name, "textarea") ? .textarea
                : cStringEquals(name, "noframes") ? .noframes : .other
        case 9: self = cStringEquals(name, "plaintext") ? .plaintext : .other
        default: self = .other
        }
    }

    /// Whether a browser ignores what the element contains as markup (`<iframe>` content is
    /// fallback text; its `src` still counts).
    var hidesContent: Bool {
        switch self {
        case .template, .title, .textarea, .xmp, .iframe, .noembed, .noframes, .plaintext: return true
        default: return false
        }
    }
}

/// Whether the NUL-terminated `string` is exactly `expected`.
func cStringEquals(_ string: UnsafePointer<UInt8>, _ expected: StaticString) -> Bool {
    let expectedBytes = UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount)
    for (offset, byte) in expectedBytes.enumerated() where string[offset] != byte { return false }
    return string[expectedBytes.count] == 0
}
