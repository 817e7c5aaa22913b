import Mustache
import StoryModel
import Testing
@testable import StoryRender

/// Responsive images (`"images"` in `storysite.json`): assets on Storyblok's asset CDN gain
/// `width`, `height` and a `srcset` of Image Service variants; richtext images too when asked.
@Suite("Responsive images")
struct ResponsiveImageTests {
    static let photo = "https://a.storyblok.com/f/39898/1000x750/e4ec08624e/demo-image.jpeg"
    static let focus = "100x200:101x201"

    /// The prepared fields of an asset field `image` holding `asset`, on `blog/post/`.
    static func prepared(_ asset: String, images: ImageSettings = ImageSettings()) -> MustacheObject? {
        let links = PageLinks(resolver: testResolver, pageURL: "blog/post/", fullSlug: "blog/post")
        let preparation = BlockPreparation(links: links, story: "blog/post", log: RenderLog(), relationLevels: 2, images: images) { _, _ in "" }
        let block = json(#"{"component": "page", "_uid": "p", "image": \#(asset)}"#)
        guard case .object(let image)? = preparation.block(in: JSONTape(encoding: block), at: 0)["image"] else { return nil }
        return image
    }

    static func string(_ value: MustacheValue?) -> String? {
        if case .string(let text)? = value { text } else { nil }
    }

    static func number(_ value: MustacheValue?) -> Double? {
        if case .number(let number)? = value { number } else { nil }
    }

    static func html(_ value: MustacheValue?) -> String? {
        if case .html(let html)? = value { html } else { nil }
    }

    static func isAbsent(_ value: MustacheValue?) -> Bool {
        value == nil
    }

    static func asset(_ filename: String, focus: String? = nil) -> String {
        #"{"id": 1, "alt": "A photo", "name": "", "focus": \#(focus.map { "\"\($0)\"" } ?? "null"), "filename": "\#(filename)", "fieldtype": "asset"}"#
    }

    /// Whether `candidate` is `<filename>/m/<w>x0[/filters:f1(...):f2(...)] <w>w`, with the
    /// filters `filters` asks for, in that order.
    static func isCandidate(_ candidate: Substring, of filename: String, width: Int, filters: [String]) -> Bool {
        let suffix = filters.isEmpty ? "" : "/filters:" + filters.joined(separator: ":")
        return candidate == "\(filename)/m/\(width)x0\(suffix) \(width)w"
    }

    @Test("the size comes from an asset CDN URL; other URLs have none")
    func parsing() throws {
        let image = try #require(ResponsiveImage(filename: Self.photo))
        #expect(image.width == 1000 && image.height == 750 && image.isResizable)
        for other in [
            "https://example.com/f/39898/1000x750/e4ec08624e/demo-image.jpeg",
            "http://a.storyblok.com/f/39898/1000x750/e4ec08624e/demo-image.jpeg",
            "https://a.storyblok.com/f/39898/e4ec08624e/demo-image.jpeg",
            "https://a.storyblok.com/f/39898/0x750/e4ec08624e/demo-image.jpeg",
            "https://a.storyblok.com/f/39898/1000x/e4ec08624e/demo-image.jpeg",
            "https://a.storyblok.com/f/39898/1000x750/e4ec08624e/demo-image.jpeg/m/480x0",
            "https://a.storyblok.com/f/39898/1000x750/e4ec08624e/demo-image.jpeg?cv=1",
            "assets/images/photo.jpg", "/assets/images/photo.jpg", "",
        ] {
            #expect(ResponsiveImage(filename: other) == nil, "\(other)")
        }
    }

    @Test("every candidate is an Image Service URL with the focus point and format; widths above the original are skipped")
    func candidates() throws {
        let image = try #require(ResponsiveImage(filename: Self.photo))
        let settings = ImageSettings(widths: [480, 960, 1440], format: "webp")
        let srcset = try #require(image.srcset(settings: settings, focus: Self.focus))
        let candidates = srcset.split(separator: ",").map { $0.drop { $0 == " " } }
        #expect(candidates.count == 2)
        for (candidate, width) in zip(candidates, [480, 960]) {
            #expect(Self.isCandidate(candidate, of: Self.photo, width: width, filters: ["focal(100x200:101x201)", "format(webp)"]), "\(candidate)")
        }
        #expect(srcset == "\(Self.photo)/m/480x0/filters:focal(100x200:101x201):format(webp) 480w, "
            + "\(Self.photo)/m/960x0/filters:focal(100x200:101x201):format(webp) 960w")

        // No format: the focal filter alone; no focus: the format filter alone; neither: no filters.
        #expect(image.srcset(settings: ImageSettings(widths: [480]), focus: Self.focus) == "\(Self.photo)/m/480x0/filters:focal(100x200:101x201) 480w")
        #expect(image.srcset(settings: ImageSettings(widths: [480], format: "avif"), focus: nil) == "\(Self.photo)/m/480x0/filters:format(avif) 480w")
        #expect(image.srcset(settings: ImageSettings(widths: [480, 1000]), focus: "") == "\(Self.photo)/m/480x0 480w, \(Self.photo)/m/1000x0 1000w")
        // A focus that is not a focus point never reaches the URL.
        #expect(image.srcset(settings: ImageSettings(widths: [480]), focus: "1x2:3x4)/x") == "\(Self.photo)/m/480x0 480w")
        // Every width above the original: no srcset.
        #expect(image.srcset(settings: ImageSettings(widths: [1440, 2000]), focus: nil) == nil)
    }

    @Test("an asset on the CDN gains width, height and srcset (default widths, no format)")
    func asset() throws {
        let fields = try #require(Self.prepared(Self.asset(Self.photo, focus: Self.focus)))
        #expect(Self.string(fields["src"]) == Self.photo)
        #expect(Self.number(fields["width"]) == 1000 && Self.number(fields["height"]) == 750)
        #expect(Self.string(fields["srcset"]) == (
            "\(Self.photo)/m/480x0/filters:focal(100x200:101x201) 480w, \(Self.photo)/m/960x0/filters:focal(100x200:101x201) 960w"))
        #expect(Self.string(fields["alt"]) == "A photo")

        let large = "https://a.storyblok.com/f/1/4000x3000/abc/large.png"
        let webp = try #require(Self.prepared(Self.asset(large), images: ImageSettings(widths: [320, 2000], format: "webp")))
        #expect(Self.string(webp["srcset"]) == "\(large)/m/320x0/filters:format(webp) 320w, \(large)/m/2000x0/filters:format(webp) 2000w")
    }

    @Test("SVGs and GIFs gain width and height but no srcset", arguments: ["logo.svg", "anim.GIF"])
    func vectorAndAnimated(name: String) throws {
        let filename = "https://a.storyblok.com/f/39898/640x480/e4ec08624e/" + name
        let fields = try #require(Self.prepared(Self.asset(filename, focus: Self.focus)))
        #expect(Self.string(fields["src"]) == filename)
        #expect(Self.number(fields["width"]) == 640 && Self.number(fields["height"]) == 480)
        #expect(Self.isAbsent(fields["srcset"]))
    }

    @Test("assets elsewhere keep src only", arguments: [
        "https://images.example.com/f/39898/1000x750/e4ec08624e/demo-image.jpeg", "/assets/images/cover.jpg",
        "https://a.storyblok.com/f/39898/e4ec08624e/no-size.jpeg",
    ])
    func elsewhere(filename: String) throws {
        let fields = try #require(Self.prepared(Self.asset(filename)))
        #expect(Self.string(fields["src"]) != nil)
        #expect(Self.isAbsent(fields["width"]) && Self.isAbsent(fields["height"]) && Self.isAbsent(fields["srcset"]))
    }

    // MARK: Richtext

    static func image(_ src: String, focus: String? = nil) -> String {
        #"{"type":"image","attrs":{"id":7,"alt":"A \"photo\"","src":"\#(src)","title":"T","focus":\#(focus.map { "\"\($0)\"" } ?? "null")}}"#
    }

    static func render(_ input: String, images: ImageSettings?) -> String {
        let renderer = RichtextRenderer(
            links: PageLinks(resolver: testResolver, pageURL: "blog/post/", fullSlug: "blog/post"), story: "blog/post", images: images,
            renderBlocks: { _, _, _ in "" })
        var warnings: [RenderWarning] = []
        return renderer.render(json(input), fieldPath: "body", warnings: &warnings)
    }

    @Test("without richtext: true, richtext images stay as they were")
    func richtextOff() {
        let plain = #"<img id="7" src="\#(Self.photo)" alt="A &quot;photo&quot;" title="T">"#
        #expect(Self.render(Self.image(Self.photo, focus: Self.focus), images: nil) == plain)
        #expect(renderRichtext(Self.image(Self.photo, focus: Self.focus)).html == plain)
        // Through block preparation with the default settings (richtext off).
        let links = PageLinks(resolver: testResolver, pageURL: "blog/post/", fullSlug: "blog/post")
        let preparation = BlockPreparation(links: links, story: "blog/post", log: RenderLog(), relationLevels: 2) { _, _ in "" }
        let block = json(#"{"component": "page", "_uid": "p", "text": {"type": "doc", "content": [\#(Self.image(Self.photo))]}}"#)
        #expect(Self.html(preparation.block(in: JSONTape(encoding: block), at: 0)["text"]) == plain)
    }

    @Test("with richtext: true, CDN images gain width, height, srcset, sizes and loading after their own attributes")
    func richtextOn() {
        let settings = ImageSettings(widths: [480, 960, 1440], format: "webp", richtext: true)
        let srcset = "\(Self.photo)/m/480x0/filters:focal(100x200:101x201):format(webp) 480w, "
            + "\(Self.photo)/m/960x0/filters:focal(100x200:101x201):format(webp) 960w"
        #expect(Self.render(Self.image(Self.photo, focus: Self.focus), images: settings)
            == #"<img id="7" src="\#(Self.photo)" alt="A &quot;photo&quot;" title="T" width="1000" height="750" srcset="\#(srcset)" sizes="100vw" loading="lazy">"#)

        // An SVG: its size and lazy loading, no srcset or sizes.
        let svg = "https://a.storyblok.com/f/39898/640x480/e4ec08624e/logo.svg"
        #expect(Self.render(Self.image(svg), images: settings)
            == #"<img id="7" src="\#(svg)" alt="A &quot;photo&quot;" title="T" width="640" height="480" loading="lazy">"#)
        // Elsewhere: as it was.
        #expect(Self.render(Self.image("https://example.com/a.jpg"), images: settings)
            == #"<img id="7" src="https://example.com/a.jpg" alt="A &quot;photo&quot;" title="T">"#)

        // Through block preparation: richtext: true reaches richtext fields.
        let links = PageLinks(resolver: testResolver, pageURL: "blog/post/", fullSlug: "blog/post")
        let preparation = BlockPreparation(links: links, story: "blog/post", log: RenderLog(), relationLevels: 2, images: settings) { _, _ in "" }
        let block = json(#"{"component": "page", "_uid": "p", "text": {"type": "doc", "content": [\#(Self.image(Self.photo, focus: Self.focus))]}}"#)
        guard case .html(let html)? = preparation.block(in: JSONTape(encoding: block), at: 0)["text"] else {
            Issue.record("no HTML")
            return
        }
        #expect(html.contains(#" srcset="\#(srcset)" sizes="100vw" loading="lazy">"#))
    }
}
