import Foundation
import Mustache
import StoryModel
import StoryRender
import Testing

@Suite("Date sections write dates in the page's language")
struct DateSectionTests {
    static let formats = DateFormats(configured: ["date": "d MMMM yyyy", "german": "d. MMMM yyyy", "short": "dd.MM.yy"])

    /// The page `template` (the `pages/default` body) renders to for a post with `fields` in its
    /// root block, `lang` as its story language, on a site in `language` (nil: no languages).
    func render(
        _ template: String, fields: String = "", lang: String = "default", language: String? = nil,
        dates: DateFormats = DateSectionTests.formats
    ) throws -> RenderedPage {
        let post = parseStory(#"""
            {"uuid": "uuid-post", "full_slug": "blog/post", "name": "A post", "lang": "\#(lang)",
             "first_published_at": "2024-03-30T08:00:00.000Z", "published_at": "2024-12-31T23:30:00.000Z",
             "content": {"component": "post", "_uid": "1"\#(fields.isEmpty ? "" : ", " + fields)}}
            """#)
        let renderer = PageRenderer(
            library: try TemplateLibrary(templates: ["pages/default": template]),
            resolver: TestResolver(stories: testStories.filter { $0.uuid != "uuid-post" } + [post]),
            language: language, dates: dates)
        return try renderer.render(post)
    }

    @Test("an API timestamp, in English month names")
    func english() throws {
        let page = try render("{{#date}}{{story.first_published_at}}{{/date}}|{{#short}}{{story.first_published_at}}{{/short}}")
        #expect(page.html == "30 March 2024|30.03.24")
        #expect(page.warnings.isEmpty)
    }

    @Test("a German page names the months in German", arguments: [
        ("de", nil as String?), ("default", "de"),
    ])
    func german(lang: String, language: String?) throws {
        let page = try render("{{#german}}{{story.first_published_at}}{{/german}}", lang: lang, language: language)
        #expect(page.html == "30. März 2024")
    }

    @Test("the page's language wins over the story's; a story language of 'default' means English")
    func localeChoice() throws {
        #expect(try render("{{#date}}{{story.first_published_at}}{{/date}}", lang: "de", language: "en").html == "30 March 2024")
        #expect(try render("{{#date}}{{story.first_published_at}}{{/date}}", lang: "default").html == "30 March 2024")
        #expect(try render("{{#date}}{{story.first_published_at}}{{/date}}", lang: "pt-br").html == "30 março 2024")
    }

    @Test("a datetime field (UTC, no seconds) reads like an API timestamp")
    func datetimeField() throws {
        let page = try render(#"{{#date}}{{when}}{{/date}} {{#iso}}{{when}}{{/iso}}"#, fields: #""when": "2024-03-30 08:00""#)
        #expect(page.html == "30 March 2024 2024-03-30T08:00:00Z")
    }

    @Test("the time zone shifts the day, the hour and the offset")
    func timeZone() throws {
        let berlin = DateFormats(configured: ["date": "d MMMM yyyy HH:mm"], timeZone: TimeZone(identifier: "Europe/Berlin"))
        let page = try render(
            "{{#date}}{{story.published_at}}{{/date}}|{{#iso}}{{story.published_at}}{{/iso}}|{{#iso}}{{story.first_published_at}}{{/iso}}",
            dates: berlin)
        // 23:30 UTC on New Year's Eve is already the new year in Berlin (UTC+1); March 30 is before summer time.
        #expect(page.html == "1 January 2025 00:30|2025-01-01T00:30:00+01:00|2024-03-30T09:00:00+01:00")
    }

    @Test("the built-in formats: date (d MMM yyyy) and iso (RFC 3339, whatever the language)")
    func builtIns() throws {
        let template = "{{#date}}{{story.first_published_at}}{{/date}}|{{#iso}}{{story.first_published_at}}{{/iso}}"
        #expect(try render(template, dates: DateFormats()).html == "30 Mar 2024|2024-03-30T08:00:00Z")
        #expect(try render(template, language: "de", dates: DateFormats()).html == "30 März 2024|2024-03-30T08:00:00Z")
        #expect(try render(template, language: "ar", dates: DateFormats()).html.hasSuffix("|2024-03-30T08:00:00Z"))
    }

    @Test("configured formats replace the built-in date; iso stays unless one is named iso")
    func configuredFormats() throws {
        let short = DateFormats(configured: ["short": "dd.MM.yy"])
        #expect(short.formats.keys.sorted() == ["iso", "short"])
        #expect(short.formats["iso"] == DateFormats.iso)
        let page = try render("[{{#date}}{{story.first_published_at}}{{/date}}]{{#iso}}{{story.first_published_at}}{{/iso}}", dates: short)
        #expect(page.html == "[]2024-03-30T08:00:00Z")
        let ownISO = DateFormats(configured: ["iso": "yyyy-MM-dd"])
        #expect(try render("{{#iso}}{{story.first_published_at}}{{/iso}}", dates: ownISO).html == "2024-03-30")
    }

    @Test("text that is not a date is written as it is, escaped, with a warning naming the section and the value")
    func notADate() throws {
        let page = try render("<p>{{#date}} {{when}} {{/date}}</p>", fields: #""when": "soon <ish>""#)
        #expect(page.html == "<p> soon &lt;ish&gt; </p>")
        #expect(page.warnings == [RenderWarning(
            kind: .notADate, story: "blog/post", fieldPath: "{{#date}}{{when}}{{/date}}",
            message: "'soon <ish>' is not a date, so it is shown as it is; dates look like 2024-03-30T08:00:00.000Z or 2024-03-30 08:00")])
    }

    @Test("empty text writes nothing, without a warning", arguments: [
        "[{{#date}}{{missing}}{{/date}}]", "[{{#date}}  {{/date}}]", "[{{#date}}{{story.content.missing}}{{/date}}]",
    ])
    func empty(template: String) throws {
        let page = try render(template)
        #expect(page.html == "[]")
        #expect(page.warnings.isEmpty)
    }

    @Test("a format used as a variable writes nothing and says how to use it")
    func asVariable() throws {
        let page = try render("[{{date}}]")
        #expect(page.html == "[]")
        #expect(page.warnings.map(\.fieldPath) == ["{{date}}"])
        #expect(page.warnings.first?.message == "'date' formats the date inside it: write {{#date}}…{{/date}}")
    }

    @Test("components, list items and tag pages see the formats too")
    func everywhere() throws {
        let renderer = PageRenderer(
            library: try TemplateLibrary(templates: [
                "pages/default": "{{#body}}{{>*component}}{{/body}}",
                "components/note": "{{#date}}{{on}}{{/date}}",
                "pages/tag": "{{#page.children}}{{#date}}{{first_published_at}}{{/date}};{{/page.children}}",
            ]),
            resolver: TestResolver(stories: testStories), language: "de", dates: Self.formats)
        let post = parseStory(#"""
            {"uuid": "uuid-note", "full_slug": "note", "name": "Note", "first_published_at": "2024-01-05T10:00:00.000Z",
             "content": {"component": "page", "_uid": "1", "body": [{"component": "note", "_uid": "2", "on": "2024-12-24 18:00"}]}}
            """#)
        #expect(try renderer.render(post).html == "24 Dezember 2024")
        let tag = TagPage(name: "News", slug: "news", count: 1, url: "tags/news/", listing: PageListing(children: [post]))
        #expect(try renderer.render(tag: tag).html == "5 Januar 2024;")
    }

    @Test("pages on many threads share the formatters and agree")
    func concurrent() async throws {
        let renderer = PageRenderer(
            library: try TemplateLibrary(templates: ["pages/default": "{{#date}}{{when}}{{/date}}|{{#iso}}{{when}}{{/iso}}"]),
            resolver: TestResolver(stories: testStories), language: "de",
            dates: DateFormats(configured: ["date": "EEEE, d. MMMM yyyy, HH:mm"], timeZone: TimeZone(identifier: "Europe/Berlin")))
        let days = (0..<400).map { 1_700_000_000 + $0 * 86_400 + $0 * 61 }
        let expected = days.map { seconds in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "de")
            formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
            formatter.dateFormat = "EEEE, d. MMMM yyyy, HH:mm"
            let iso = DateFormatter()
            iso.locale = Locale(identifier: "en_US_POSIX")
            iso.timeZone = TimeZone(identifier: "Europe/Berlin")
            iso.dateFormat = DateFormats.isoPattern
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            return formatter.string(from: date) + "|" + iso.string(from: date)
        }
        let rendered = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, seconds) in days.enumerated() {
                group.addTask {
                    let when = StoryDate(secondsSinceEpoch: seconds).rfc3339
                    let story = parseStory(#"""
                        {"uuid": "u\#(index)", "full_slug": "p\#(index)", "name": "P", "content": {"component": "page", "_uid": "1", "when": "\#(when)"}}
                        """#)
                    return (index, try renderer.render(story, url: "p\(index)/").html)
                }
            }
            var pages = [String](repeating: "", count: days.count)
            for try await (index, html) in group { pages[index] = html }
            return pages
        }
        #expect(rendered == expected)
    }

    @Test("the fingerprint changes with any pattern, name or the time zone")
    func fingerprint() {
        let base = DateFormats(configured: ["date": "d MMMM yyyy"])
        #expect(base.fingerprintText == DateFormats(configured: ["date": "d MMMM yyyy"]).fingerprintText)
        #expect(base.fingerprintText != DateFormats(configured: ["date": "d MMM yyyy"]).fingerprintText)
        #expect(base.fingerprintText != DateFormats(configured: ["day": "d MMMM yyyy"]).fingerprintText)
        #expect(base.fingerprintText != DateFormats(configured: ["date": "d MMMM yyyy"], timeZone: TimeZone(identifier: "Europe/Berlin")).fingerprintText)
        #expect(base.fingerprintText != DateFormats().fingerprintText)
    }
}
