import Foundation
import SiteBuild
import StoryModel
import StoryRender
import Testing
import TestSupport
@testable import StorySiteCLI

extension StorySiteCLITests {
    @Suite("storysite.json: dates and timeZone")
    struct DateConfigurationTests {
        @Test("dates and timeZone are read; the formats replace the built-in date and keep iso")
        func read() throws {
            let configuration = try parsedConfiguration(#"""
                {"dates": {"date": "d MMMM yyyy", "short": "dd.MM.yy", "long-time": "EEEE, d MMMM yyyy, HH:mm"},
                 "timeZone": "Europe/Berlin"}
                """#)
            #expect(configuration.dates == ["date": "d MMMM yyyy", "short": "dd.MM.yy", "long-time": "EEEE, d MMMM yyyy, HH:mm"])
            #expect(configuration.timeZone?.identifier == "Europe/Berlin")

            let settings = try parsedOptions(#"{"dates": {"short": "dd.MM.yy"}, "timeZone": "America/New_York"}"#).settings
            #expect(settings.dates.formats == ["short": DateFormats.Format(pattern: "dd.MM.yy"), "iso": DateFormats.iso])
            #expect(settings.dates.timeZone.identifier == "America/New_York")
        }

        @Test("a format named iso replaces the built-in one")
        func ownISO() throws {
            let settings = try parsedOptions(#"{"dates": {"iso": "yyyy-MM-dd"}}"#).settings
            #expect(settings.dates.formats == ["iso": DateFormats.Format(pattern: "yyyy-MM-dd")])
        }

        @Test("without dates: the built-in date and iso, in UTC; timeZone alone keeps them")
        func defaults() throws {
            let plain = try parsedOptions("{}").settings.dates
            #expect(plain == DateFormats())
            #expect(plain.formats["date"]?.pattern == "d MMM yyyy")
            #expect(plain.formats["iso"]?.pattern == "yyyy-MM-dd'T'HH:mm:ssXXX")
            #expect(plain.timeZone == DateFormats.utc && plain.timeZone.secondsFromGMT() == 0)
            #expect(try parsedOptions(#"{"timeZone": "UTC"}"#).settings.dates == plain)
            let zoned = try parsedOptions(#"{"timeZone": "Asia/Tokyo"}"#).settings.dates
            #expect(zoned.formats == DateFormats.builtIn)
            #expect(zoned.timeZone.identifier == "Asia/Tokyo")
        }

        @Test("bad dates and time zones name the key and what is wrong", arguments: [
            (#"{"dates": "d MMMM yyyy"}"#,
             #"storysite.json: error: 'dates' must be an object of format names and ICU date patterns, such as {"date": "d MMMM yyyy"}"#),
            (#"{"dates": ["d MMMM yyyy"]}"#,
             #"storysite.json: error: 'dates' must be an object of format names and ICU date patterns, such as {"date": "d MMMM yyyy"}"#),
            (#"{"dates": {"short": ""}}"#, #"storysite.json: error: 'dates.short' must be a non-empty ICU date pattern, such as "d MMMM yyyy""#),
            (#"{"dates": {"short": 12}}"#, #"storysite.json: error: 'dates.short' must be a non-empty ICU date pattern, such as "d MMMM yyyy""#),
            (#"{"dates": {"short": null}}"#, #"storysite.json: error: 'dates.short' must be a non-empty ICU date pattern, such as "d MMMM yyyy""#),
            (#"{"dates": {"page": "d MMMM yyyy"}}"#,
             "storysite.json: error: 'dates.page' would hide the 'page' every template sees; name the format otherwise (taken: page, site, global, story, markdown, collections, tags, tag)"),
            (#"{"dates": {"markdown": "d"}}"#,
             "storysite.json: error: 'dates.markdown' would hide the 'markdown' every template sees; name the format otherwise (taken: page, site, global, story, markdown, collections, tags, tag)"),
            (#"{"dates": {"tag": "d"}}"#,
             "storysite.json: error: 'dates.tag' would hide the 'tag' every template sees; name the format otherwise (taken: page, site, global, story, markdown, collections, tags, tag)"),
            (#"{"dates": {"long.date": "d"}}"#,
             "storysite.json: error: 'dates.long.date' is not a format name: use letters, digits, _ and -, so that {{#name}}…{{/name}} can reach it"),
            (#"{"dates": {"": "d"}}"#,
             "storysite.json: error: 'dates.' is not a format name: use letters, digits, _ and -, so that {{#name}}…{{/name}} can reach it"),
            (#"{"timeZone": "Europe/Berln"}"#,
             "storysite.json: error: 'timeZone' 'Europe/Berln' is not a time zone; use an IANA name, such as Europe/Berlin, America/New_York or UTC"),
            (#"{"timeZone": ""}"#, #"storysite.json: error: 'timeZone' must be a time zone's IANA name, such as "Europe/Berlin" or "UTC""#),
            (#"{"timeZone": 1}"#, #"storysite.json: error: 'timeZone' must be a time zone's IANA name, such as "Europe/Berlin" or "UTC""#),
            (#"{"date": {"short": "dd.MM.yy"}}"#,
             "storysite.json: error: 'date' is not a setting (did you mean 'dates'?); known settings: source, templates, static, output, entry, baseURL, site, markdown, global, strict, jobs, fallback, listings, collections, languages, translation, dates, timeZone, images, richtext, preview"),
            (#"{"timezone": "UTC"}"#,
             "storysite.json: error: 'timezone' is not a setting (did you mean 'timeZone'?); known settings: source, templates, static, output, entry, baseURL, site, markdown, global, strict, jobs, fallback, listings, collections, languages, translation, dates, timeZone, images, richtext, preview"),
        ])
        func badSettings(json: String, message: String) async throws {
            try await StorySiteCLITests.expectRefused(settings: json, saying: message)
        }
    }
}
