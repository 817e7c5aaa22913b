import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Responsive images (`"images"` in `storysite.json`), driven through the built executable:
    /// the demo theme's covers, richtext images, and rebuilds when the settings change.
    @Suite("storysite build, responsive images, end to end")
    struct ImagesEndToEndTests {
        typealias Collections = CollectionsEndToEndTests
        typealias Site = BuildEndToEndTests

        static let cover = "https://a.storyblok.com/f/39898/1600x900/e4ec08624e/cover-pricing.jpg"

        /// The demo, with the pricing post's cover moved to the asset CDN (focus point
        /// `800x450:801x451`) and `images` set to `images`.
        static func demo(images: String) throws -> TemporaryFolder {
            let workspace = try Site.demoWorkspace()
            let post = "Content/blog/our-pricing-explained.json"
            var text = try workspace.read(post)
            let local = #""focus": "",\#n      "title": "Pricing",\#n      "filename": "/assets/images/cover-pricing.svg""#
            #expect(text.contains(local))
            text = text.replacingOccurrences(
                of: local, with: #""focus": "800x450:801x451",\#n      "title": "Pricing",\#n      "filename": "\#(cover)""#)
            try workspace.write(post, text)
            try setImages(images, in: workspace)
            return workspace
        }

        /// Sets (or, for nil, removes) `images` in the workspace's `storysite.json`.
        static func setImages(_ images: String?, in workspace: TemporaryFolder) throws {
            let data = Data(try workspace.read("storysite.json").utf8)
            var settings = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            settings["images"] = try images.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
            let written = try JSONSerialization.data(withJSONObject: settings, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            try workspace.write("storysite.json", String(decoding: written, as: UTF8.self))
        }

        static func srcset(format: String) -> String {
            [480, 960, 1440].map { "\(cover)/m/\($0)x0/filters:focal(800x450:801x451):format(\(format)) \($0)w" }.joined(separator: ", ")
        }

        /// The HTML files of the output that mention `text`, by relative path.
        static func pages(containing text: String, in workspace: TemporaryFolder) throws -> [String] {
            try Site.allFiles(in: workspace.path("Output")).filter { $0.key.hasSuffix(".html") && String(decoding: $0.value, as: UTF8.self).contains(text) }
                .keys.sorted()
        }

        @Test("the demo's post cover and cards use srcset, width and height; a changed setting rebuilds the pages")
        func demoTheme() async throws {
            let workspace = try Self.demo(images: #"{"format": "webp"}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")

            let post = try workspace.read("Output/blog/our-pricing-explained/index.html")
            #expect(post.contains(#"<figure class="post__cover"><img src="\#(Self.cover)" srcset="\#(Self.srcset(format: "webp"))" sizes="(min-width: 44rem) 42rem, 100vw" width="1600" height="900" alt="Three price cards with the middle one highlighted"></figure>"#))
            let card = #"<li class="card">"# + "\n" + #"<img src="\#(Self.cover)" srcset="\#(Self.srcset(format: "webp"))" sizes="(min-width: 64rem) 22rem, (min-width: 40rem) 50vw, 100vw" width="1600" height="900" alt="" loading="lazy">"#
            let cards = try Self.pages(containing: card, in: workspace)
            #expect(!cards.isEmpty, "no card shows the CDN cover")
            // Local covers keep src only.
            let other = try workspace.read("Output/blog/why-stockpot-works-offline-first/index.html")
            #expect(other.contains(#"<figure class="post__cover"><img src="../../assets/images/"#))
            #expect(!other.contains("srcset"))

            // Another format: the key changes, so the pages are written again.
            try Self.setImages(#"{"format": "avif"}"#, in: workspace)
            let again = try await Executable.run(["build"], in: workspace.url)
            #expect(again.status == 0, "\(again.stderr)")
            let rebuilt = try workspace.read("Output/blog/our-pricing-explained/index.html")
            #expect(rebuilt.contains(#"srcset="\#(Self.srcset(format: "avif"))""#))
            #expect(try Self.pages(containing: Self.srcset(format: "webp"), in: workspace).isEmpty)
        }

        static let templates: [String: String] = [
            "pages/default.mustache": "text={{text}}\ncover={{cover.width}}x{{cover.height}} {{cover.srcset}}\n",
        ]

        static func workspace(settings: String?) throws -> TemporaryFolder {
            let image = "https://a.storyblok.com/f/1/1000x500/abc/photo.png"
            let home = try Collections.story("home", uuid: "home", name: "Home", content: [
                "text": ["type": "doc", "content": [
                    ["type": "image", "attrs": ["id": 3, "src": image, "alt": "A <photo>", "title": "", "focus": "10x20:11x21"]],
                    ["type": "image", "attrs": ["id": 4, "src": "https://example.com/elsewhere.png", "alt": "Elsewhere"]],
                ]],
                "cover": ["id": 5, "filename": image, "alt": "", "focus": "", "fieldtype": "asset"],
            ])
            let workspace = try TemporaryFolder(prefix: "storysite-images")
            for (name, text) in templates { try workspace.write("Templates/" + name, text) }
            try workspace.write("Content/" + home.path, home.json)
            if let settings { try workspace.write("storysite.json", settings) }
            return workspace
        }

        static let image = "https://a.storyblok.com/f/1/1000x500/abc/photo.png"
        static let plainImages = #"<img id="3" src="\#(image)" alt="A &lt;photo&gt;"><img id="4" src="https://example.com/elsewhere.png" alt="Elsewhere">"#

        @Test("richtext images gain width, height, srcset, sizes and loading only with richtext: true")
        func richtext() async throws {
            let workspace = try Self.workspace(settings: #"{"images": {"widths": [320, 640, 1280], "richtext": true}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            let srcset = "\(Self.image)/m/320x0/filters:focal(10x20:11x21) 320w, \(Self.image)/m/640x0/filters:focal(10x20:11x21) 640w"
            #expect(try Collections.facts("text", "Output/index.html", in: workspace) == [
                #"<img id="3" src="\#(Self.image)" alt="A &lt;photo&gt;" width="1000" height="500" srcset="\#(srcset)" sizes="100vw" loading="lazy">"#
                    + #"<img id="4" src="https://example.com/elsewhere.png" alt="Elsewhere">"#,
            ])
            #expect(try Collections.facts("cover", "Output/index.html", in: workspace) == [
                "1000x500 \(Self.image)/m/320x0 320w, \(Self.image)/m/640x0 640w",
            ])

            // Without images: richtext as before, assets with the default widths; rebuilt, since the key changed.
            try FileManager.default.removeItem(at: workspace.path("storysite.json"))
            let again = try await Executable.run(["build"], in: workspace.url)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try Collections.facts("text", "Output/index.html", in: workspace) == [Self.plainImages])
            #expect(try Collections.facts("cover", "Output/index.html", in: workspace) == [
                "1000x500 \(Self.image)/m/480x0 480w, \(Self.image)/m/960x0 960w",
            ])
        }

        @Test("a bad images setting exits 64 and names the key")
        func badSetting() async throws {
            let workspace = try Self.workspace(settings: #"{"images": {"format": "gif"}}"#)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 64)
            #expect(result.stderr.contains(#"storysite.json: error: 'images.format' must be one of "webp", "avif", "png", "jpeg""#), "\(result.stderr)")
            #expect(!workspace.exists("Output/index.html"))
        }
    }
}
