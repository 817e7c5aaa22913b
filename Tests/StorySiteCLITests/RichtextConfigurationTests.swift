import Foundation
@testable import SiteBuild
import StoryModel
import StoryRender
import Testing
import TestSupport
@testable import StorySiteCLI

extension StorySiteCLITests {
    @Suite("storysite.json: richtext")
    struct RichtextConfigurationTests {
        @Test("richtext is read into the build's settings; heading ids are off by default")
        func read() throws {
            #expect(try parsedOptions(#"{"richtext": {"headingIds": true}}"#).settings.richtext == RichtextSettings(headingIds: true))
            #expect(try parsedOptions(#"{"richtext": {"headingIds": false}}"#).settings.richtext == RichtextSettings())
            #expect(try parsedOptions(#"{"richtext": {}}"#).settings.richtext == RichtextSettings())
            #expect(try parsedConfiguration("{}").richtext == nil)
            #expect(try !parsedOptions("{}").settings.richtext.headingIds)
        }

        @Test("heading ids are part of the build key; off written out is the default")
        func buildKey() throws {
            let folder = try TemporaryFolder()
            func key(_ json: String) throws -> String {
                BuildInputs(settings: try parsedOptions(json).settings, workingDirectory: folder.url).key
            }
            #expect(try key(#"{"richtext": {"headingIds": true}}"#) != key("{}"))
            #expect(try key(#"{"richtext": {"headingIds": false}}"#) == key("{}"))
            #expect(try key(#"{"richtext": {}}"#) == key("{}"))
        }

        static let knownSettings = "source, templates, static, output, entry, baseURL, site, markdown, global, strict, jobs, fallback, "
            + "listings, collections, languages, translation, dates, timeZone, images, richtext, preview"

        @Test("bad richtext settings exit 64, naming the key", arguments: [
            (#"{"richtext": true}"#, #"'richtext' must be an object such as {"headingIds": true}"#),
            (#"{"richtext": ["headingIds"]}"#, #"'richtext' must be an object such as {"headingIds": true}"#),
            (#"{"richtext": {"headingIds": "yes"}}"#, "'richtext.headingIds' must be true or false"),
            (#"{"richtext": {"headingIds": null}}"#, "'richtext.headingIds' must be true or false"),
            (#"{"richtext": {"headingId": true}}"#,
             "'richtext.headingId' is not a setting (did you mean 'headingIds'?); known settings: headingIds"),
            (#"{"richtext": {"toc": true}}"#, "'richtext.toc' is not a setting; known settings: headingIds"),
            (#"{"richText": {"headingIds": true}}"#,
             "'richText' is not a setting (did you mean 'richtext'?); known settings: " + knownSettings),
        ])
        func badSettings(json: String, message: String) async throws {
            try await StorySiteCLITests.expectRefused(settings: json, saying: "storysite.json: error: " + message, build: true)
        }
    }
}
