/// The responsive images of `storysite.json` (`"images"`): which widths an asset on Storyblok's
/// asset CDN offers in its `srcset`, through the Image Service, in which format, and whether
/// richtext images get the same attributes.
public struct ImageSettings: Sendable, Hashable {
    /// The formats the Image Service's `format` filter writes.
    public static let formats = ["webp", "avif", "png", "jpeg"]
    /// The widths of a site whose `storysite.json` sets none.
    public static let defaultWidths = [480, 960, 1440]

    /// The candidate widths, in pixels, each positive; those above an asset's own width are skipped.
    public var widths: [Int]
    /// The format every candidate is converted to (one of ``formats``); nil keeps the Image
    /// Service's own choice.
    public var format: String?
    /// Whether richtext images on the asset CDN get `width`, `height`, `srcset`, `sizes` and `loading`.
    public var richtext: Bool

    public init(widths: [Int] = ImageSettings.defaultWidths, format: String? = nil, richtext: Bool = false) {
        self.widths = widths
        self.format = format
        self.richtext = richtext
    }

    /// The settings as one text, for the build's key.
    public var fingerprintText: String {
        "widths=" + widths.map(String.init).joined(separator: ",") + " format=\(format ?? "-") richtext=\(richtext)"
    }
}

/// An image on Storyblok's asset CDN, `https://a.storyblok.com/f/<space>/<W>x<H>/<hash>/<name>.<ext>`,
/// whose URL gives its size, and the Image Service variants of it.
public struct ResponsiveImage: Sendable, Hashable {
    /// The asset's URL, as the content has it.
    public var filename: String
    /// Its width and height in pixels, from the URL.
    public var width: Int
    public var height: Int
    /// Whether the Image Service may resize it: not an SVG (scaled by the browser) or a GIF
    /// (whose animation resizing would lose).
    public var isResizable: Bool

    /// The image `filename` names, or nil when it is not a plain asset CDN URL with a size.
    public init?(filename: String) {
        let prefix = "https://a.storyblok.com/f/"
        guard filename.hasPrefix(prefix), !filename.contains("?"), !filename.contains("#") else { return nil }
        let parts = filename.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, !parts[0].isEmpty, parts[0].allSatisfy(\.isASCII), parts[0].allSatisfy(\.isNumber),
              !parts[2].isEmpty, !parts[3].isEmpty else { return nil }
        let size = parts[1].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Self.positive(size[0]), let height = Self.positive(size[1]) else { return nil }
        let name = parts[3].lowercased()
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        self.filename = filename
        self.width = width
        self.height = height
        self.isResizable = ext != "svg" && ext != "gif"
    }

    /// The `srcset` of the image: one candidate per width of `settings` not above its own,
    /// `<filename>/m/<w>x0[/filters:focal(<focus>)[:format(<f>)]] <w>w`, comma-separated; nil
    /// when there is none (an SVG or GIF, or every width above the image's). `focus` is the
    /// asset's focus point (`100x200:101x201`); any other text is ignored.
    public func srcset(settings: ImageSettings, focus: String?) -> String? {
        guard isResizable else { return nil }
        var filters: [String] = []
        if let focus, Self.isFocusPoint(focus) { filters.append("focal(\(focus))") }
        if let format = settings.format { filters.append("format(\(format))") }
        let suffix = filters.isEmpty ? "" : "/filters:" + filters.joined(separator: ":")
        var seen = Set<Int>()
        let candidates = settings.widths.filter { $0 > 0 && $0 <= width && seen.insert($0).inserted }
            .map { "\(filename)/m/\($0)x0\(suffix) \($0)w" }
        return candidates.isEmpty ? nil : candidates.joined(separator: ", ")
    }

    /// Whether `text` is a focus point as Storyblok writes it: `<x1>x<y1>:<x2>x<y2>`.
    static func isFocusPoint(_ text: String) -> Bool {
        let corners = text.split(separator: ":", omittingEmptySubsequences: false)
        return corners.count == 2 && corners.allSatisfy { corner in
            let numbers = corner.split(separator: "x", omittingEmptySubsequences: false)
            return numbers.count == 2 && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        }
    }

    private static func positive(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), value > 0 else {
            return nil
        }
        return value
    }
}
