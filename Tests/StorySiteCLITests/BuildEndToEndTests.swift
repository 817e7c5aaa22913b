import Foundation
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Drives the built `storysite` executable the way a user does.
    @Suite("storysite build, end to end")
    struct BuildEndToEndTests {
        /// A working folder holding a copy of the bundled demo (Content, Templates, storysite.json).
        static func demoWorkspace() throws -> TemporaryFolder {
            let workspace = try TemporaryFolder()
            let root = SharedFixtures.repositoryRoot
            for item in ["Content", "Templates", "storysite.json"] {
                let source = root.appendingPathComponent(item)
                if FileManager.default.fileExists(atPath: source.path) {
                    try FileManager.default.copyItem(at: source, to: workspace.path(item))
                }
            }
            return workspace
        }

        /// A minimal site: a layout, one page template, one component, and the given stories.
        static func smallSite(stories: [String: String]) throws -> TemporaryFolder {
            let workspace = try TemporaryFolder()
            try workspace.write("Templates/layout.mustache", "<html><body>{{$main}}{{/main}}</body></html>\n")
            try workspace.write("Templates/pages/default.mustache", "{{<layout}}{{$main}}<h1>{{story.name}}</h1>{{#body}}{{>*component}}{{/body}}{{/main}}{{/layout}}")
            try workspace.write("Templates/components/teaser.mustache", "<a href=\"{{link.href}}\">{{title}}</a>")
            for (path, json) in stories { try workspace.write("Content/\(path)", json) }
            return workspace
        }

        static func story(_ slug: String, uuid: String, linksTo target: String? = nil) -> String {
            let body = target.map {
                #"[{"component": "teaser", "_uid": "t1", "title": "Next", "link": {"id": "\#($0)", "linktype": "story", "fieldtype": "multilink", "cached_url": ""}}]"#
            } ?? "[]"
            return #"{"name": "\#(slug)", "uuid": "\#(uuid)", "full_slug": "\#(slug)", "content": {"component": "page", "_uid": "r", "body": \#(body)}}"#
        }

        /// Every file below `folder` with its bytes; storysite's records in `.storysite/` only with `records`.
        static func allFiles(in folder: URL, records: Bool = false) throws -> [String: Data] {
            var files: [String: Data] = [:]
            let enumerator = FileManager.default.enumerator(atPath: folder.path)
            while let path = enumerator?.nextObject() as? String {
                var isFolder: ObjCBool = false
                let url = folder.appendingPathComponent(path)
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
                   records || !path.hasPrefix(".storysite") {
                    files[path] = try Data(contentsOf: url)
                }
            }
            return files
        }

        @Test("the bundled demo builds without warnings and every page links to pages that exist")
        func demoBuilds() async throws {
            let workspace = try Self.demoWorkspace()
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Built "))
            #expect(result.stdout.contains(" 0 warnings"), "\(result.stdout)\(result.stderr)")
            #expect(workspace.exists("Output/index.html"))
            #expect(workspace.exists("Output/blog/index.html"))
            #expect(workspace.exists("Output/404.html"))
            #expect(workspace.exists("Output/assets/style.css"))
            #expect(!workspace.exists("Output/global/index.html"))
        }

        @Test("builds are byte-identical whatever --jobs is")
        func deterministicAcrossJobs() async throws {
            let workspace = try Self.demoWorkspace()
            let one = try await Executable.run(["build", "--jobs", "1", "--output", "one", "--base-url", "https://example.com"], in: workspace.url)
            let eight = try await Executable.run(["build", "--jobs", "8", "--output", "eight", "--base-url", "https://example.com"], in: workspace.url)
            #expect(one.status == 0 && eight.status == 0, "\(one.stderr)\(eight.stderr)")
            let first = try Self.allFiles(in: workspace.path("one"))
            #expect(first.count > 20)
            #expect(first == (try Self.allFiles(in: workspace.path("eight"))))
            #expect(first["sitemap.xml"] != nil && first["robots.txt"] != nil)
        }

        @Test("a second build with no change writes no file")
        func secondBuildWritesNothing() async throws {
            let workspace = try Self.demoWorkspace()
            let first = try await Executable.run(["build"], in: workspace.url)
            #expect(first.status == 0, "\(first.stderr)")
            let modified = try FileManager.default.attributesOfItem(atPath: workspace.path("Output/index.html").path)[.modificationDate] as? Date
            let second = try await Executable.run(["build"], in: workspace.url)
            #expect(second.status == 0)
            #expect(second.stdout.contains("(0 written, "), "\(second.stdout)")
            let after = try FileManager.default.attributesOfItem(atPath: workspace.path("Output/index.html").path)[.modificationDate] as? Date
            #expect(modified == after)
        }

        @Test("a broken template fails the build with its position and leaves the previous output intact")
        func brokenTemplateKeepsOutput() async throws {
            let workspace = try Self.smallSite(stories: ["home.json": Self.story("home", uuid: "h")])
            #expect(try await Executable.run(["build"], in: workspace.url).status == 0)
            let before = try Self.allFiles(in: workspace.path("Output"))
            try workspace.write("Templates/components/teaser.mustache", "<a>\n  {{#link}}{{href}}\n</a>")
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("Templates/components/teaser.mustache:2:3: error: section 'link' opened here is never closed"), "\(result.stderr)")
            #expect(result.stderr.contains("Output/ was left as it was"))
            #expect(try Self.allFiles(in: workspace.path("Output")) == before)
        }

        @Test("a slug that would escape the output folder is rejected and nothing is written")
        func traversalSlugRejected() async throws {
            let workspace = try Self.smallSite(stories: [
                "home.json": Self.story("home", uuid: "h", linksTo: "e"),
                "evil.json": Self.story("../../etc/evil", uuid: "e"),
            ])
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("../../etc/evil: error: slug '../../etc/evil' cannot be a page path: it contains a '..' segment"), "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("two stories on one page are reported by name")
        func duplicatePathReported() async throws {
            let workspace = try Self.smallSite(stories: [
                "home.json": Self.story("home", uuid: "h", linksTo: "a"),
                "a.json": Self.story("docs/intro", uuid: "a", linksTo: "b"),
                "b.json": Self.story("docs/intro/", uuid: "b"),
            ])
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("docs/intro"), "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("an output folder holding files storysite did not write is refused")
        func foreignOutputRefused() async throws {
            let workspace = try Self.smallSite(stories: ["home.json": Self.story("home", uuid: "h")])
            try workspace.write("public/important.txt", "keep me")
            let result = try await Executable.run(["build", "--output", "public"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("public: error: the output folder holds files storysite did not write ('important.txt')"), "\(result.stderr)")
            #expect(try workspace.read("public/important.txt") == "keep me")
            let beside = try FileManager.default.contentsOfDirectory(atPath: workspace.url.path)
            #expect(!beside.contains { $0.hasPrefix(".public") }, "nothing of the build is left beside the folder: \(beside)")
        }

        @Test("the current folder and the content folder are never used as output")
        func protectedOutputRefused() async throws {
            let workspace = try Self.smallSite(stories: ["home.json": Self.story("home", uuid: "h")])
            let here = try await Executable.run(["build", "--output", "."], in: workspace.url)
            #expect(here.status == 1)
            #expect(here.stderr.contains("the output folder cannot be the current folder"))
            let content = try await Executable.run(["build", "--output", "Content"], in: workspace.url)
            #expect(content.status == 1)
            #expect(content.stderr.contains("cannot be, contain or lie inside the source folder"))
        }

        @Test("a partial that names no template is one warning where the tag stands, not a missing component")
        func missingPartial() async throws {
            let workspace = try Self.smallSite(stories: ["home.json": Self.story("home", uuid: "h")])
            try workspace.write("Templates/layout.mustache", "<main>\n  {{>header}}\n{{$main}}{{/main}}</main>\n")
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(
                "Templates/layout.mustache:2:3: warning: no template is named 'header' (nor 'components/header'), so this partial renders as nothing"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("no template for component"), "\(result.stderr)")
            #expect(result.stdout.contains("1 warning\n"), "\(result.stdout)")
        }

        @Test("a missing component template is a warning naming the component and its stories, an error under --strict")
        func missingComponent() async throws {
            let workspace = try Self.smallSite(stories: [
                "home.json": #"{"name": "Home", "uuid": "h", "full_slug": "home", "content": {"component": "page", "_uid": "r", "body": [{"component": "carousel", "_uid": "c"}]}}"#,
            ])
            let lenient = try await Executable.run(["build"], in: workspace.url)
            #expect(lenient.status == 0)
            #expect(lenient.stderr.contains("Templates/components/carousel.mustache: warning: no template for component 'carousel', used by home"), "\(lenient.stderr)")
            #expect(lenient.stdout.contains("1 warning\n"))
            let strict = try await Executable.run(["build", "--strict", "--output", "strict"], in: workspace.url)
            #expect(strict.status == 1)
            #expect(strict.stderr.contains("Templates/components/carousel.mustache: error: no template for component 'carousel'"))
            #expect(!workspace.exists("strict"))
        }

        @Test("a broken story link is a warning with the story and field path")
        func brokenLinkWarning() async throws {
            let workspace = try Self.smallSite(stories: ["home.json": Self.story("home", uuid: "h", linksTo: "missing-story")])
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 0)
            #expect(result.stderr.contains("home: body[0].link: warning: broken story link to 'missing-story'"), "\(result.stderr)")
        }

        @Test("all problems in the content are listed together")
        func allContentProblemsListed() async throws {
            let workspace = try Self.smallSite(stories: [
                "home.json": Self.story("home", uuid: "h"),
                "bad.json": "{\n  \"uuid\": \"x\",\n  oops\n}",
                "incomplete.json": #"{"uuid": "y", "full_slug": "y"}"#,
            ])
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("Content/bad.json:3:3: error:"), "\(result.stderr)")
            #expect(result.stderr.contains("Content/incomplete.json: error:"), "\(result.stderr)")
        }

        @Test("links to / lead to the first entry, which need not be called home, and breadcrumbs start with it")
        func rootIsFirstEntry() async throws {
            let rootLink = #"{"fieldtype": "multilink", "linktype": "url", "url": "/", "id": "", "cached_url": "/"}"#
            let setupLink = #"{"fieldtype": "multilink", "linktype": "story", "id": "setup", "cached_url": "en/docs/setup"}"#
            func page(_ slug: String, uuid: String, name: String, text: String, link: String) -> String {
                #"""
                {"name": "\#(name)", "uuid": "\#(uuid)", "full_slug": "\#(slug)", "content": {"component": "page", "_uid": "r",
                 "text": "\#(text)", "body": [{"component": "teaser", "_uid": "t", "title": "Go", "link": \#(link)}]}}
                """#
            }
            let workspace = try Self.smallSite(stories: [
                "en/home.json": page("en/home", uuid: "en-home", name: "Welcome", text: "[self](/)", link: setupLink),
                "en/docs/index.json": page("en/docs/", uuid: "docs", name: "Docs", text: "[home](/#top)", link: rootLink),
                "en/docs/setup.json": page("en/docs/setup", uuid: "setup", name: "Setup", text: "[home](/) and [docs](./)", link: rootLink),
                "home.json": page("home", uuid: "old-home", name: "Old home", text: "", link: rootLink),
            ])
            try workspace.write("Templates/pages/default.mustache", """
                {{<layout}}{{$main}}<nav>{{#page.breadcrumbs}}<a href="{{href}}">{{name}}</a>{{/page.breadcrumbs}}</nav>\
                {{#markdown}}{{{text}}}{{/markdown}}{{#body}}{{>*component}}{{/body}}{{/main}}{{/layout}}
                """)

            let result = try await Executable.run(["build", "--entry", "en/home"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            // The old home is reached by nothing now, and the build says so.
            #expect(result.stdout.contains(" 1 warning"), "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("Content/: warning: 1 story is reached by no link; storysite check --orphans lists them"), "\(result.stderr)")
            #expect(try workspace.read("Output/index.html").contains(#"<nav></nav><p><a href="./">self</a></p>"#))
            #expect(!workspace.exists("Output/home/index.html"))
            let setup = try workspace.read("Output/en/docs/setup/index.html")
            #expect(setup.contains(#"<nav><a href="../../../">Welcome</a><a href="../">Docs</a></nav>"#), "\(setup)")
            #expect(setup.contains(#"<p><a href="../../../">home</a> and <a href="../">docs</a></p>"#), "\(setup)")
            #expect(setup.contains(#"<a href="../../../">Go</a>"#), "\(setup)")
            let docs = try workspace.read("Output/en/docs/index.html")
            #expect(docs.contains(#"<nav><a href="../../">Welcome</a></nav><p><a href="../../#top">home</a></p>"#), "\(docs)")
            #expect(try await Executable.run(["check", "Output"], in: workspace.url).status == 0)

            let byUUID = try await Executable.run(["build", "--entry", "en-home", "--output", "ByUUID"], in: workspace.url)
            #expect(byUUID.status == 0 && byUUID.stdout.contains(" 1 warning"), "\(byUUID.stdout)\(byUUID.stderr)")
            #expect(try Self.allFiles(in: workspace.path("ByUUID")) == (try Self.allFiles(in: workspace.path("Output"))))

            // Renaming the root story changes the breadcrumbs of a page that is otherwise unchanged.
            try workspace.write("Content/en/home.json", page("en/home", uuid: "en-home", name: "Start", text: "[self](/)", link: setupLink))
            let rebuild = try await Executable.run(["build", "--entry", "en/home"], in: workspace.url)
            #expect(rebuild.status == 0, "\(rebuild.stderr)")
            #expect(try workspace.read("Output/en/docs/setup/index.html").contains(#"<nav><a href="../../../">Start</a>"#))
        }

        @Test("--quiet prints nothing on success")
        func quiet() async throws {
            let workspace = try Self.smallSite(stories: ["home.json": Self.story("home", uuid: "h")])
            let result = try await Executable.run(["build", "--quiet"], in: workspace.url)
            #expect(result.status == 0)
            #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
        }

        @Test("without a terminal, progress is plain lines and the summary is the last line")
        func plainProgress() async throws {
            let workspace = try Self.smallSite(stories: ["home.json": Self.story("home", uuid: "h")])
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(!result.stderr.contains("\u{1B}"))
            #expect(result.stderr.contains("Crawled 1 story from Content/"))
            #expect(result.stdout.range(of: #"^Built 1 page from 1 story in \d+\.\d\d s \(2 written, 0 unchanged, 0 removed\), 0 warnings\n$"#, options: .regularExpression) != nil, "\(result.stdout)")
        }

        @Test("--timings lists each phase of the build with its duration, then the total")
        func timings() async throws {
            let workspace = try Self.smallSite(stories: ["home.json": Self.story("home", uuid: "h")])
            let result = try await Executable.run(["build", "--timings"], in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(result.stderr.range(of: "Timings:\n").map { result.stderr[$0.upperBound...] })
            let phases = report.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
            for phase in ["load", "crawl", "render", "write", "total"] { #expect(phases.contains(phase), "\(report)") }
            #expect(phases.last == "total")
            #expect(report.split(separator: "\n").allSatisfy { $0.range(of: #" \d+ ms   CPU +\d+ ms$"#, options: .regularExpression) != nil }, "\(report)")

            let unchanged = try await Executable.run(["build", "--timings"], in: workspace.url)
            #expect(!unchanged.stderr.contains("  render "), "a build with nothing to do renders nothing: \(unchanged.stderr)")
        }

        @Test("an empty content folder says there are no stories, and a failed first build says nothing was written")
        func emptyContent() async throws {
            let workspace = try Self.smallSite(stories: [:])
            try FileManager.default.createDirectory(at: workspace.path("Content"), withIntermediateDirectories: true)
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("Content: error: no stories in Content/; add story JSON files (each with uuid, full_slug and content)"), "\(result.stderr)")
            #expect(!result.stderr.contains("Crawl failed"), "\(result.stderr)")
            #expect(result.stderr.hasSuffix("Build failed with 1 error; nothing was written.\n"), "\(result.stderr)")
            #expect(!workspace.exists("Output"))
        }

        @Test("a first build whose pages were rendered and staged but then fails leaves neither an output folder nor its staging folder")
        func failedFirstBuildLeavesNothing() async throws {
            // Under --strict a block without a template is an error, found once its pages rendered.
            let workspace = try Self.smallSite(stories: [
                "home.json": Self.story("home", uuid: "h", linksTo: "a"),
                "a.json": #"{"name": "A", "uuid": "a", "full_slug": "a", "content": {"component": "page", "_uid": "r", "body": [{"component": "gallery", "_uid": "g"}]}}"#,
            ])
            let result = try await Executable.run(["build", "--strict"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("no template for component 'gallery'"), "\(result.stderr)")
            #expect(result.stderr.hasSuffix("nothing was written.\n"), "\(result.stderr)")
            let beside = try FileManager.default.contentsOfDirectory(atPath: workspace.url.path)
            #expect(!beside.contains { $0.hasPrefix("Output") || $0.hasPrefix(".Output") }, "\(beside)")

            let fixed = try await Executable.run(["build"], in: workspace.url)
            #expect(fixed.status == 0, "\(fixed.stderr)")
            #expect(try workspace.read("Output/a/index.html").contains("<h1>A</h1>"))
            #expect(!FileManager.default.fileExists(atPath: workspace.path(".Output.storysite-staging").path))
            // The kept content, written beside the output folder while the pages were, is in it now.
            #expect(!FileManager.default.fileExists(atPath: workspace.path(".Output.storysite-kept").path))
            #expect(workspace.exists("Output/.storysite/content-files") && workspace.exists("Output/.storysite/content-graph"))
        }

        @Test("a story missing required keys names all of them at once")
        func missingRequiredKeys() async throws {
            let workspace = try Self.smallSite(stories: [
                "home.json": Self.story("home", uuid: "h"),
                "draft.json": #"{"name": "Draft", "content": {"component": "page", "_uid": "d"}}"#,
            ])
            let result = try await Executable.run(["build"], in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains(
                "Content/draft.json: error: story is missing the required keys 'uuid' and 'full_slug' (every story has uuid, full_slug and content)\n"),
                "\(result.stderr)")
        }

        @Test("usage errors exit 64 with the usage line; help and version exit 0")
        func usage() async throws {
            let workspace = try TemporaryFolder()
            let unknown = try await Executable.run(["build", "--colour"], in: workspace.url)
            #expect(unknown.status == 64)
            #expect(unknown.stderr.hasPrefix("Error: Unknown option '--colour'\nUsage: storysite build "))
            let command = try await Executable.run(["biuld"], in: workspace.url)
            #expect(command.status == 64)
            #expect(command.stderr.contains("Unknown command 'biuld' (did you mean 'build'?)"))
            let version = try await Executable.run(["--version"], in: workspace.url)
            #expect(version.status == 0 && version.stdout.hasPrefix("storysite "))
            let help = try await Executable.run(["help", "build"], in: workspace.url)
            #expect(help.status == 0 && help.stdout.contains("--base-url <url>"))
        }
    }
}
