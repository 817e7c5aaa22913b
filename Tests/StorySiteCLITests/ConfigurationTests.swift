import Foundation
import SiteBuild
import StoryModel
import Testing
import TestSupport
@testable import StorySiteCLI

extension StorySiteCLITests {
    @Suite("storysite.json")
    struct ConfigurationTests {
        @Test("every setting is read by its long name")
        func everySetting() throws {
            let folder = try TemporaryFolder()
            try folder.write("storysite.json", """
                {"source": "Stories", "templates": "Theme", "output": "public", "entry": ["home", "global"],
                 "baseURL": "https://example.com", "site": {"title": "Acme"}, "markdown": {"unsafe": true},
                 "global": "settings", "strict": true, "jobs": 3}
                """)
            let configuration = try Configuration.load(from: folder.url)
            #expect(configuration.source == "Stories")
            #expect(configuration.templates == "Theme")
            #expect(configuration.output == "public")
            #expect(configuration.entries == ["home", "global"])
            #expect(configuration.baseURL == "https://example.com")
            #expect(configuration.site["title"] == .string("Acme"))
            #expect(configuration.markdownUnsafe == true)
            #expect(configuration.global == "settings")
            #expect(configuration.strict == true)
            #expect(configuration.jobs == 3)
        }

        @Test("no file means no settings")
        func absent() throws {
            let folder = try TemporaryFolder()
            #expect(try Configuration.load(from: folder.url) == Configuration())
        }

        @Test("bad settings name the key and what is wrong", arguments: [
            (#"{"ouput": "x"}"#, "storysite.json: error: 'ouput' is not a setting (did you mean 'output'?); known settings: source, templates, static, output, entry, baseURL, site, markdown, global, strict, jobs, fallback, listings, collections, languages, translation, dates, timeZone, images, richtext, preview"),
            (#"{"entry": []}"#, "storysite.json: error: 'entry' must be a slug or a non-empty array of slugs"),
            (#"{"jobs": 1.5}"#, "storysite.json: error: 'jobs' must be a whole number from 1 to 256"),
            (#"{"markdown": {"unsafe": "yes"}}"#, "storysite.json: error: 'markdown.unsafe' must be true or false"),
            (#"{"site": []}"#, "storysite.json: error: 'site' must be an object"),
            (#"[1]"#, "storysite.json: error: must be a JSON object"),
            ("{\n  \"source\": \"x\",\n}", "storysite.json:3:1: error: expected a string key in object"),
        ])
        func badSettings(json: String, message: String) async throws {
            try await StorySiteCLITests.expectRefused(settings: json, saying: message)
        }

        @Test("listings and collections are read by folder and name, with their defaults")
        func listingsAndCollections() throws {
            let configuration = try Configuration(json: try JSONValue(parsing: """
                {"listings": {"blog": {"sort": "first_published_at desc", "perPage": 5, "feed": true, "feedSize": 10, "summary": "content.excerpt"},
                              "tags/": {"sort": "name"}},
                 "collections": {"latest": {"folder": "blog/", "sort": "first_published_at desc", "limit": 3},
                                 "guides": {"component": "guide", "tag": "featured"}}}
                """))
            let blog = try #require(configuration.listings["blog/"])
            #expect(blog.order == (try StoryOrder(parsing: "first_published_at desc")))
            #expect(blog.perPage == 5 && blog.feed && blog.feedSize == 10 && blog.summaryField == "excerpt")
            #expect(configuration.listings["tags/"]?.perPage == nil)
            #expect(configuration.collections.map(\.name) == ["guides", "latest"])
            let guides = configuration.collections[0].selection
            #expect(guides.folder == "" && guides.recursive && guides.component == "guide" && guides.tag == "featured" && guides.limit == nil)
            let latest = configuration.collections[1].selection
            #expect(latest.folder == "blog/" && !latest.recursive && latest.limit == 3)
        }

        @Test("bad listings and collections name the key and what is wrong", arguments: [
            (#"{"listings": {"blog/": {"perPage": 0}}}"#, "storysite.json: error: 'listings.blog/.perPage' must be a positive whole number"),
            (#"{"listings": {"blog/": {"perPage": 2.5}}}"#, "storysite.json: error: 'listings.blog/.perPage' must be a positive whole number"),
            (#"{"listings": {"blog/": {"sort": "date"}}}"#,
             "storysite.json: error: 'listings.blog/.sort' unknown sort key 'date'; use name, slug, full_slug, position, created_at, published_at, first_published_at or content.<field>"),
            (#"{"listings": {"blog/": {"perpage": 2}}}"#,
             "storysite.json: error: 'listings.blog/.perpage' is not a setting (did you mean 'perPage'?); known settings: sort, perPage, feed, feedSize, summary"),
            (#"{"listings": {"blog/": {"summary": "excerpt"}}}"#,
             "storysite.json: error: 'listings.blog/.summary' must name a field of the story's content, such as \"content.excerpt\""),
            (#"{"listings": []}"#, #"storysite.json: error: 'listings' must be an object of folders, such as {"blog/": {"sort": "first_published_at desc"}}"#),
            (#"{"collections": {"latest": {"limt": 3}}}"#,
             "storysite.json: error: 'collections.latest.limt' is not a setting (did you mean 'limit'?); known settings: folder, recursive, component, tag, sort, limit"),
            (#"{"collections": {"latest": {"limit": -1}}}"#, "storysite.json: error: 'collections.latest.limit' must be a positive whole number"),
            (#"{"collections": {"latest": {"folder": ""}}}"#, #"storysite.json: error: 'collections.latest.folder' must name a folder, such as "blog/""#),
        ])
        func badListings(json: String, message: String) throws {
            #expect {
                try Configuration(json: try JSONValue(parsing: json))
            } throws: { error in
                (error as? ConfigurationError)?.description == message
            }
        }

        @Test("languages are Storyblok codes, each once, the default first; translation is field or folder", arguments: [
            (#"{"languages": []}"#, #"storysite.json: error: 'languages' must be a non-empty array of language codes, the default first, such as ["en", "de"]"#),
            (#"{"languages": ["en", "en"]}"#, "storysite.json: error: 'languages' 'en' is listed twice"),
            (#"{"languages": ["en", "DE"]}"#, "storysite.json: error: 'languages' 'DE' is not a language code; use Storyblok's codes, such as de, de-at or pt-br"),
            (#"{"languages": ["en", "de_at"]}"#, "storysite.json: error: 'languages' 'de_at' is not a language code; use Storyblok's codes, such as de, de-at or pt-br"),
            (#"{"languages": "en"}"#, #"storysite.json: error: 'languages' must be a non-empty array of language codes, the default first, such as ["en", "de"]"#),
            (#"{"translation": "space"}"#, #"storysite.json: error: 'translation' must be "field" or "folder""#),
        ])
        func badLanguages(json: String, message: String) throws {
            #expect {
                try Configuration(json: try JSONValue(parsing: json))
            } throws: { error in
                (error as? ConfigurationError)?.description == message
            }
        }

        @Test("languages keep their order")
        func languages() throws {
            let configuration = try Configuration(json: try JSONValue(parsing: #"{"languages": ["en", "de-at", "pt-br"], "translation": "field"}"#))
            #expect(configuration.languages == ["en", "de-at", "pt-br"])
        }

        @Test("flags override the file")
        func flagsWin() throws {
            var configuration = Configuration()
            configuration.output = "public"
            configuration.entries = ["start"]
            configuration.jobs = 3
            let parsed = try ParsedArguments(["--output", "dist", "--jobs", "5"], spec: BuildCommand.spec)
            let options = try BuildOptions(arguments: parsed, configuration: configuration)
            #expect(options.output == "dist")
            #expect(options.entries == ["start"])
            #expect(options.jobs == 5)
            #expect(options.source == "Content")
        }

        @Test("a base URL must be absolute http(s) and gains a trailing slash")
        func baseURL() throws {
            let good = try BuildOptions(
                arguments: ParsedArguments(["--base-url", "https://example.com/docs"], spec: BuildCommand.spec),
                configuration: Configuration())
            #expect(good.baseURL == "https://example.com/docs/")
            #expect(throws: UsageError.self) {
                try BuildOptions(
                    arguments: ParsedArguments(["--base-url", "example.com"], spec: BuildCommand.spec),
                    configuration: Configuration())
            }
        }
    }
}

/// The settings `json`, the text of a `storysite.json`, gives.
func parsedConfiguration(_ json: String) throws -> Configuration {
    try Configuration(json: try JSONValue(parsing: json))
}

/// The build options of `storysite build` with no flags under the `storysite.json` text `json`.
func parsedOptions(_ json: String) throws -> BuildOptions {
    try BuildOptions(arguments: try ParsedArguments([], spec: BuildCommand.spec), configuration: try parsedConfiguration(json))
}
