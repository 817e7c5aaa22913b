import Foundation
@testable import SiteBuild
import StoryModel
import StoryRender
import Testing
import TestSupport
@testable import StorySiteCLI

extension StorySiteCLITests {
    @Suite("storysite.json: images")
    struct ImageConfigurationTests {
        @Test("images is read into the build's settings")
        func read() throws {
            let images = try parsedOptions(#"{"images": {"widths": [960, 480, 1440, 480], "format": "webp", "richtext": true}}"#).settings.images
            #expect(images == ImageSettings(widths: [480, 960, 1440], format: "webp", richtext: true))
            for format in ["webp", "avif", "png", "jpeg"] {
                #expect(try parsedOptions(#"{"images": {"format": "\#(format)"}}"#).settings.images.format == format)
            }
            // Each key is optional; the others keep their defaults.
            #expect(try parsedOptions(#"{"images": {"widths": [320]}}"#).settings.images == ImageSettings(widths: [320]))
            #expect(try parsedOptions(#"{"images": {"richtext": true}}"#).settings.images == ImageSettings(richtext: true))
            #expect(try parsedOptions(#"{"images": {}}"#).settings.images == ImageSettings())
        }

        @Test("without images: widths 480, 960 and 1440, no format, richtext off")
        func defaults() throws {
            #expect(try parsedConfiguration("{}").images == nil)
            let images = try parsedOptions("{}").settings.images
            #expect(images.widths == [480, 960, 1440] && images.format == nil && !images.richtext)
        }

        @Test("the settings are part of the build key")
        func buildKey() throws {
            let folder = try TemporaryFolder()
            func key(_ json: String) throws -> String {
                BuildInputs(settings: try parsedOptions(json).settings, workingDirectory: folder.url).key
            }
            var seen = Set<String>()
            for json in [
                "{}", #"{"images": {"widths": [480, 960]}}"#, #"{"images": {"format": "webp"}}"#, #"{"images": {"format": "avif"}}"#,
                #"{"images": {"richtext": true}}"#,
            ] {
                #expect(seen.insert(try key(json)).inserted, "\(json)")
            }
            // The defaults written out are the defaults.
            #expect(try key(#"{"images": {"widths": [480, 960, 1440], "richtext": false}}"#) == key("{}"))
        }

        static let imagesShape = #"must be an object such as {"widths": [480, 960, 1440], "format": "webp", "richtext": true}"#
        static let widthsShape = "must be a non-empty array of widths in pixels, such as [480, 960, 1440]"
        static let formats = #"must be one of "webp", "avif", "png", "jpeg""#

        @Test("bad images settings exit 64, naming the key", arguments: [
            (#"{"images": true}"#, "'images' " + imagesShape),
            (#"{"images": [480, 960]}"#, "'images' " + imagesShape),
            (#"{"images": {"widths": []}}"#, "'images.widths' " + widthsShape),
            (#"{"images": {"widths": 480}}"#, "'images.widths' " + widthsShape),
            (#"{"images": {"widths": [480, 0]}}"#,
             "'images.widths' '0' is not a width; use positive whole numbers of pixels, such as [480, 960, 1440]"),
            (#"{"images": {"widths": [-480]}}"#,
             "'images.widths' '-480' is not a width; use positive whole numbers of pixels, such as [480, 960, 1440]"),
            (#"{"images": {"widths": [480.5]}}"#,
             "'images.widths' '480.5' is not a width; use positive whole numbers of pixels, such as [480, 960, 1440]"),
            (#"{"images": {"widths": ["480"]}}"#,
             #"'images.widths' '"480"' is not a width; use positive whole numbers of pixels, such as [480, 960, 1440]"#),
            (#"{"images": {"format": "gif"}}"#, "'images.format' " + formats),
            (#"{"images": {"format": "WEBP"}}"#, "'images.format' " + formats),
            (#"{"images": {"format": null}}"#, "'images.format' " + formats),
            (#"{"images": {"richtext": "yes"}}"#, "'images.richtext' must be true or false"),
            (#"{"images": {"width": [480]}}"#,
             "'images.width' is not a setting (did you mean 'widths'?); known settings: widths, format, richtext"),
            (#"{"images": {"sizes": "100vw"}}"#, "'images.sizes' is not a setting; known settings: widths, format, richtext"),
            (#"{"image": {"widths": [480]}}"#,
             "'image' is not a setting (did you mean 'images'?); known settings: source, templates, static, output, entry, baseURL, site, markdown, global, strict, jobs, fallback, listings, collections, languages, translation, dates, timeZone, images, richtext, preview"),
        ])
        func badSettings(json: String, message: String) async throws {
            try await StorySiteCLITests.expectRefused(settings: json, saying: "storysite.json: error: " + message, build: true)
        }
    }
}
