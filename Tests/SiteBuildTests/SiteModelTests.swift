import Foundation
import Testing
import TestSupport
@testable import SiteBuild

extension SiteBuildTests {
    /// Rendering one page again with a posted story, as the Visual Editor's `input` event asks.
    @Suite("The site model renders a page with a posted story")
    struct SiteModelTests {
        private static func story(_ uuid: String, _ slug: String, body: String) -> String {
            #"{"story": {"uuid": "\#(uuid)", "full_slug": "\#(slug)", "name": "\#(slug)", "content": {"component": "page", "_uid": "r-\#(uuid)", "body": [\#(body)]}}}"#
        }

        private static func hero(_ headline: String) -> String {
            #"{"component": "hero", "_uid": "h", "headline": "\#(headline)"}"#
        }

        /// The model of a build of home, about (linked from home) and the global story.
        private static func model(strict: Bool = false) async throws -> (SiteModel, TemporaryFolder) {
            let folder = try TemporaryFolder()
            _ = try folder.write("Content/home.json", story("u-home", "home", body: hero("Stored home") + #", {"component": "link", "_uid": "l", "to": {"fieldtype": "multilink", "linktype": "story", "id": "u-about"}}"#))
            _ = try folder.write("Content/about.json", story("u-about", "about", body: hero("Stored about")))
            _ = try folder.write("Content/global.json", #"{"story": {"uuid": "u-global", "full_slug": "global", "name": "Global", "content": {"component": "settings", "_uid": "g", "footer": "Stored footer"}}}"#)
            _ = try folder.write("Templates/layout.mustache", "<title>{{story.name}}</title><main>{{$main}}{{/main}}</main><footer>{{global.footer}}</footer>")
            _ = try folder.write("Templates/pages/default.mustache", "{{<layout}}{{$main}}{{#body}}{{>*component}}{{/body}}{{/main}}{{/layout}}")
            _ = try folder.write("Templates/components/hero.mustache", "<h1>{{headline}}</h1>")
            _ = try folder.write("Templates/components/link.mustache", #"<a href="{{to.href}}">{{to.title}}</a>"#)
            var settings = SiteSettings(strict: strict, jobs: 1)
            settings.editable = true
            let output = await SiteGenerator(settings: settings, workingDirectory: folder.url).generate()
            #expect(!output.hasErrors, "\(output.diagnostics)")
            return (try #require(output.model), folder)
        }

        private static func render(_ model: SiteModel, _ path: String, _ json: String) throws(PostedStoryError) -> String {
            try model.renderPage(at: path, postedStory: Array(json.utf8))
        }

        @Test("the posted story replaces the stored one on its page, links still resolving against the site")
        func postedStory() async throws {
            let (model, _) = try await Self.model()
            let html = try Self.render(model, "/", Self.story("u-home", "home", body: Self.hero("Typed <now>") + #", {"component": "link", "_uid": "l", "to": {"fieldtype": "multilink", "linktype": "story", "id": "u-about"}}"#))
            #expect(html == #"<title>home</title><main><h1>Typed &lt;now&gt;</h1><a href="about/">about</a></main><footer>Stored footer</footer>"#)
            #expect(try Self.render(model, "/about/index.html", Self.story("u-about", "about", body: Self.hero("New about"))).contains("<h1>New about</h1>"))
        }

        @Test("a bare story object, as the bridge sends it, works as {\"story\": …} does")
        func bareStory() async throws {
            let (model, _) = try await Self.model()
            let bare = #"{"uuid": "u-about", "full_slug": "about", "name": "about", "content": {"component": "page", "_uid": "r", "body": [\#(Self.hero("Bare"))]}}"#
            #expect(try Self.render(model, "/about/", bare).contains("<h1>Bare</h1>"))
        }

        @Test("an edit of the global story shows on the page at the path")
        func globalStory() async throws {
            let (model, _) = try await Self.model()
            let global = #"{"uuid": "u-global", "full_slug": "global", "name": "Global", "content": {"component": "settings", "_uid": "g", "footer": "Edited footer"}}"#
            let html = try Self.render(model, "/about/", global)
            #expect(html.contains("<footer>Edited footer</footer>") && html.contains("<h1>Stored about</h1>"))
        }

        @Test("no page at the path, another story's page, JSON that is not a story and a failed render are refused, saying why")
        func refusals() async throws {
            let (model, _) = try await Self.model(strict: true)
            let about = Self.story("u-about", "about", body: Self.hero("x"))
            #expect(throws: PostedStoryError(reason: .noPage, location: "/nope/", message: "no page is at this path in the last build; save the story so that a build places it")) {
                try Self.render(model, "/nope/", about)
            }
            #expect(throws: PostedStoryError(reason: .otherStory, location: "/", message: "the page shows story 'home', not 'about' (nor the global story)")) {
                try Self.render(model, "/", about)
            }
            #expect(throws: PostedStoryError(reason: .invalidStory, location: "posted story:1:11", message: "unexpected end of file, expected a value")) {
                try Self.render(model, "/", #"{"story": "#)
            }
            #expect { try Self.render(model, "/", #"{"name": "no uuid"}"#) } throws: { ($0 as? PostedStoryError)?.reason == .invalidStory }
            #expect(throws: PostedStoryError(
                reason: .renderFailed, location: "Templates/components/banner.mustache",
                message: "no template for component 'banner', used by about; add the template (--strict makes this an error)")) {
                try Self.render(model, "/about/", Self.story("u-about", "about", body: #"{"component": "banner", "_uid": "b"}"#))
            }
        }

        @Test("rendering writes nothing: the stored story file stays as it was and no output appears")
        func pure() async throws {
            let (model, folder) = try await Self.model()
            let stored = try folder.read("Content/about.json")
            _ = try Self.render(model, "/about/", Self.story("u-about", "about", body: Self.hero("Unsaved")))
            #expect(try folder.read("Content/about.json") == stored)
            #expect(!folder.exists("Output"))
        }
    }
}
