import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

extension StorySiteCLITests {
    /// Drafts with the Visual Editor's markers, as a user builds and serves them.
    @Suite("The Visual Editor, end to end")
    struct VisualEditorEndToEndTests {
        /// A draft space of one story whose blocks carry `_editable`, and a theme that marks them.
        static func draftWorkspace(configuration: String? = nil) throws -> TemporaryFolder {
            let folder = try TemporaryFolder()
            _ = try folder.write("Content/home.json", #"""
                {"story": {"id": 101, "uuid": "u-home", "full_slug": "home", "name": "Home", "content": {
                  "component": "page", "_uid": "root", "_editable": "<!--#storyblok#{\"name\": \"page\", \"uid\": \"root\", \"id\": \"101\"}-->",
                  "body": [{"component": "hero", "_uid": "hero", "headline": "Stored headline",
                            "_editable": "<!--#storyblok#{\"name\": \"hero\", \"uid\": \"hero\", \"id\": \"101\"}-->"}]}}}
                """#)
            _ = try folder.write("Templates/layout.mustache", "<html><body><main {{{editable}}}>{{$main}}{{/main}}</main></body></html>")
            _ = try folder.write("Templates/pages/default.mustache", "{{<layout}}{{$main}}{{#body}}{{>*component}}{{/body}}{{/main}}{{/layout}}")
            _ = try folder.write("Templates/components/hero.mustache", "<h1 {{{editable}}}>{{headline}}</h1>")
            if let configuration { _ = try folder.write("storysite.json", configuration) }
            return folder
        }

        static let heroMarkers = #"data-blok-c="{&quot;name&quot;:&quot;hero&quot;,&quot;uid&quot;:&quot;hero&quot;,&quot;id&quot;:&quot;101&quot;}" data-blok-uid="101-hero""#
        static let rootMarkers = #"data-blok-c="{&quot;name&quot;:&quot;page&quot;,&quot;uid&quot;:&quot;root&quot;,&quot;id&quot;:&quot;101&quot;}" data-blok-uid="101-root""#

        @Test("build writes no markers; build --version draft --editable writes them, and only them, re-rendering the cached pages")
        func buildEditable() async throws {
            let folder = try Self.draftWorkspace()
            #expect(try await Executable.run(["build", "--quiet"], in: folder.url).status == 0)
            let published = try folder.read("Output/index.html")
            #expect(published == "<html><body><main ><h1 >Stored headline</h1></main></body></html>")
            let editable = try await Executable.run(["build", "--version", "draft", "--editable", "--quiet"], in: folder.url)
            #expect(editable.status == 0, "\(editable.stderr)")
            let marked = try folder.read("Output/index.html")
            #expect(marked.contains("<h1 \(Self.heroMarkers)>Stored headline</h1>"))
            #expect(marked.contains("<main \(Self.rootMarkers)>"))
            #expect(!marked.contains("<script"))
            #expect(try await Executable.run(["build", "--version", "draft", "--quiet"], in: folder.url).status == 0)
            #expect(try folder.read("Output/index.html") == published)
        }

        /// `value` with Storyblok's `_editable` on every block (not on a table's rows and cells), and
        /// the `id-uid` of each block marked.
        static func markingBlocks(_ value: Any, storyID: Int, marked: inout [String]) -> Any {
            if let list = value as? [Any] { return list.map { markingBlocks($0, storyID: storyID, marked: &marked) } }
            guard var object = value as? [String: Any] else { return value }
            for (key, field) in object { object[key] = markingBlocks(field, storyID: storyID, marked: &marked) }
            if let component = object["component"] as? String, !component.hasPrefix("_table"), let uid = object["_uid"] as? String {
                object["_editable"] = #"<!--#storyblok#{"name": "\#(component)", "space": "1", "uid": "\#(uid)", "id": "\#(storyID)"}-->"#
                marked.append("\(storyID)-\(uid)")
            }
            return object
        }

        @Test("the default theme marks every block of a demo page, and without markers its pages are byte for byte the published ones")
        func defaultTheme() async throws {
            let workspace = try BuildEndToEndTests.demoWorkspace()
            let file = workspace.path("Content/about.json")
            var blocks: [String] = []
            let story = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
            try JSONSerialization.data(withJSONObject: Self.markingBlocks(story, storyID: 7, marked: &blocks)).write(to: file)
            #expect(try await Executable.run(["build", "--quiet", "--output", "Published"], in: workspace.url).status == 0)
            #expect(try await Executable.run(["build", "--quiet", "--version", "draft", "--editable", "--output", "Drafts"], in: workspace.url).status == 0)

            let about = try workspace.read("Drafts/about/index.html")
            let unmarked = blocks.filter { !about.contains(#"data-blok-uid="\#($0)""#) }
            #expect(blocks.count > 10 && unmarked.isEmpty, "blocks without their data-blok-uid: \(unmarked)")
            let pages = try FileManager.default.subpathsOfDirectory(atPath: workspace.path("Published").path).filter { $0.hasSuffix(".html") }
            #expect(pages.count > 30)
            for page in pages {
                let draft = try workspace.read("Drafts/" + page)
                    .replacingOccurrences(of: #" data-blok-c="[^"]*" data-blok-uid="[^"]*""#, with: "", options: .regularExpression)
                #expect(draft == (try workspace.read("Published/" + page)), "\(page) differs by more than the markers")
            }
            #expect(try !workspace.read("Published/about/index.html").contains("data-blok"))
        }

        @Test("--editable without draft content is a usage error saying what to add")
        func editableNeedsDrafts() async throws {
            let folder = try Self.draftWorkspace()
            let result = try await Executable.run(["build", "--editable"], in: folder.url)
            #expect(result.status == 64)
            #expect(result.stderr.contains("'--editable' writes the Visual Editor's attributes, which only draft content has: add --version draft"))
        }

        @Test("preview.bridge must be an http(s) URL, and preview takes no other key")
        func bridgeSetting() async throws {
            let notURLFolder = try Self.draftWorkspace(configuration: #"{"preview": {"bridge": "bridge.js"}}"#)
            let notURL = try await Executable.run(["build"], in: notURLFolder.url)
            #expect(notURL.status == 64)
            #expect(notURL.stderr.contains("'preview.bridge' must be the absolute http(s) URL of the bridge script"))
            let unknownFolder = try Self.draftWorkspace(configuration: #"{"preview": {"brige": "x"}}"#)
            let unknown = try await Executable.run(["build"], in: unknownFolder.url)
            #expect(unknown.status == 64)
            #expect(unknown.stderr.contains("'preview.brige' is not a setting (did you mean 'bridge'?)"))
        }

        @Test("serve --version draft marks blocks, loads the configured bridge, and renders a posted story for its page's handler only")
        func serveDraft() async throws {
            let folder = try Self.draftWorkspace(configuration: #"{"preview": {"bridge": "http://127.0.0.1:9/bridge.js"}}"#)
            let server = try ServeProcess(["--port", "0", "--version", "draft"], in: folder.url)
            let url = try await server.url()
            let page = try await ServeEndToEndTests.get(url)
            #expect(page.body.contains("<h1 \(Self.heroMarkers)>Stored headline</h1>"))
            #expect(page.body.contains(#"bridgeURL = "http:\/\/127.0.0.1:9\/bridge.js""#))
            #expect(try !folder.read("Output/index.html").contains("data-storysite-visual-editor"))
            let token = try #require(page.body.firstMatch(of: /token = "([0-9a-f]{64})"/)).1

            let edited = try folder.read("Content/home.json").replacingOccurrences(of: "Stored headline", with: "Typed headline")
            let host = String(url.dropFirst("http://".count).dropLast())
            func post(token: String, origin: String) async throws -> (Int, String) {
                var request = URLRequest(url: URL(string: url + "_storysite/editor/render?path=/")!)
                request.httpMethod = "POST"
                request.httpBody = Data(edited.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.setValue(token, forHTTPHeaderField: "X-Storysite-Editor-Token")
                request.setValue(origin, forHTTPHeaderField: "Origin")
                let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
            }
            let (status, html) = try await post(token: String(token), origin: "http://" + host)
            #expect(status == 200)
            #expect(html == "<html><body><main \(Self.rootMarkers)><h1 \(Self.heroMarkers)>Typed headline</h1></main></body></html>")
            #expect(try await post(token: "nope", origin: "http://" + host).0 == 403)
            #expect(try await post(token: String(token), origin: "http://evil.example").0 == 403)
            #expect(try folder.read("Output/index.html").contains("Stored headline"))
            #expect(await server.terminate() == 0)
        }

        @Test("serve without drafts has no editor: no bridge in pages, and its endpoints are not found")
        func servePublished() async throws {
            let folder = try Self.draftWorkspace()
            let server = try ServeProcess(["--port", "0"], in: folder.url)
            let url = try await server.url()
            let page = try await ServeEndToEndTests.get(url)
            #expect(!page.body.contains("data-storysite-visual-editor"))
            #expect(page.body.contains("<h1 >Stored headline</h1>"))
            #expect(try await ServeEndToEndTests.get(url + "_storysite/editor/render").status == 404)
            #expect(await server.terminate() == 0)
        }
    }
}
