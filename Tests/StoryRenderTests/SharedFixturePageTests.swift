import Foundation
import Mustache
import StoryModel
import StoryRender
import TestSupport
import Testing

@Suite("Every shared Storyblok fixture renders through templates")
struct SharedFixturePageTests {
    /// The stories of a fixture file: a CDN response (`{"story": ...}`), a list
    /// (`{"stories": [...]}`, with `rels`), or a bare story object. A file holding only a
    /// richtext document becomes the `text` field of a `rich_text` block in a story of its own.
    static func stories(in value: JSONValue, file: String) -> [Story] {
        if value["type"]?.stringValue == "doc" {
            let content = JSONObject(["component": .string("rich_text"), "_uid": .string("fixture"), "text": value])
            let object = JSONObject(["uuid": .string(file), "full_slug": .string("fixtures/" + file), "content": .object(content)])
            return [try! Story(json: object)]
        }
        var objects: [JSONObject] = []
        if let story = value["story"]?.objectValue { objects.append(story) }
        for key in ["stories", "rels"] { objects += value[key]?.arrayValue?.compactMap(\.objectValue) ?? [] }
        if let object = value.objectValue, object["content"] != nil { objects.append(object) }
        return objects.compactMap { try? Story(json: $0) }
    }

    /// For every component in `stories`, a template that prints each of its fields the way a
    /// theme would: nested blocks through their component, multilinks as links, assets as
    /// images, Markdown-looking strings through the helper, relations as lists, the rest as text.
    static func componentTemplates(for stories: [Story]) -> [String: String] {
        var fieldsByComponent: [String: [String: JSONValue]] = [:]
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let object):
                if let component = object["component"]?.stringValue {
                    for entry in object where fieldsByComponent[component]?[entry.key] == nil {
                        fieldsByComponent[component, default: [:]][entry.key] = entry.value
                    }
                }
                if object["type"]?.stringValue == "doc" {
                    collectBloks(value)
                    return
                }
                object.forEach { collect($0.value) }
            case .array(let elements):
                elements.forEach(collect)
            default:
                break
            }
        }
        func collectBloks(_ node: JSONValue) {
            node["attrs"]?["body"]?.arrayValue?.forEach(collect)
            node["content"]?.arrayValue?.forEach(collectBloks)
        }
        stories.forEach { collect($0.content) }

        var templates: [String: String] = [:]
        for (component, fields) in fieldsByComponent {
            var template = "<div class=\"\(component)\">"
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) where Self.isTemplateName(name) {
                template += "<div>" + Self.tag(for: name, value) + "</div>"
            }
            templates["components/" + component] = template + "</div>"
        }
        return templates
    }

    private static func isTemplateName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    private static func tag(for name: String, _ value: JSONValue) -> String {
        switch value {
        case .array(let elements) where elements.contains { $0["component"] != nil }:
            return "{{#\(name)}}{{>*component}}{{/\(name)}}"
        case .array(let elements) where !elements.isEmpty && elements.allSatisfy { $0.stringValue.map(StoryReference.isUUIDShaped) ?? false }:
            return "{{#\(name)}}<a href=\"{{href}}\">{{name}}</a>{{/\(name)}}"
        case .string(let text) where StoryReference.isUUIDShaped(text):
            return "{{#\(name)}}<a href=\"{{href}}\">{{name}}</a>{{/\(name)}}"
        case .object(let object) where object["fieldtype"]?.stringValue == "multilink":
            return "{{#\(name).href}}<a href=\"{{\(name).href}}\">{{\(name).title}}</a>{{/\(name).href}}"
        case .object(let object) where object["fieldtype"]?.stringValue == "asset":
            return "{{#\(name).src}}<img src=\"{{\(name).src}}\" alt=\"{{\(name).alt}}\">{{/\(name).src}}"
        case .object(let object) where object["fieldtype"]?.stringValue == "table":
            return "{{#\(name)}}<table><tr>{{#thead}}<th>{{value}}</th>{{/thead}}</tr>{{#tbody}}<tr>{{#body}}<td>{{value}}</td>{{/body}}</tr>{{/tbody}}</table>{{/\(name)}}"
        case .object(let object) where object["component"] != nil:
            return "{{#\(name)}}{{>*component}}{{/\(name)}}"
        case .string where name.lowercased().contains("markdown") || name == "body" || name == "text":
            return "{{#markdown}}{{{\(name)}}}{{/markdown}}"
        default:
            return "{{\(name)}}"
        }
    }

    @Test("each fixture file's stories render to balanced HTML with every component template present",
          .enabled(if: SharedFixtureRichtextTests.fixturesAvailable, "../shared/storyblok-fixtures is absent: real Storyblok content is not available here"))
    func everyFixture() throws {
        var allStories: [Story] = []
        var storiesByFile: [(String, [Story])] = []
        for file in SharedFixtureRichtextTests.fixtureFiles() {
            let data = try Data(contentsOf: SharedFixtures.url("storyblok-fixtures/" + file)!)
            let stories = Self.stories(in: try JSONValue(parsing: data), file: file)
            storiesByFile.append((file, stories))
            allStories += stories
        }
        #expect(storiesByFile.allSatisfy { !$0.1.isEmpty }, "a fixture without stories: \(storiesByFile.filter { $0.1.isEmpty }.map(\.0))")

        var templates = Self.componentTemplates(for: allStories)
        templates["layout"] = "<!doctype html><html><body>{{$main}}{{/main}}<footer>{{#global}}{{>*component}}{{/global}}</footer></body></html>"
        templates["pages/default"] = """
            {{<layout}}{{$main}}<nav>{{#page.breadcrumbs}}<a href="{{href}}">{{name}}</a>{{/page.breadcrumbs}}</nav>\
            <h1>{{story.name}}</h1>{{#story.content}}{{>*component}}{{/story.content}}{{/main}}{{/layout}}
            """
        let library = try TemplateLibrary(templates: templates)
        var seen = Set<String>()
        let unique = allStories.filter { seen.insert($0.uuid).inserted }
        let renderer = PageRenderer(
            library: library, resolver: TestResolver(stories: unique), site: json(#"{"title": "Fixtures"}"#),
            global: unique.first { $0.fullSlug == "global" }, baseURL: "https://fixtures.example/")

        var pages = 0
        for (file, stories) in storiesByFile {
            for story in stories {
                let page = try renderer.render(story)
                pages += 1
                #expect(page.missingComponents.isEmpty, "\(file) \(story.fullSlug)")
                #expect(HTMLBalance.problem(in: page.html) == nil, "\(file) \(story.fullSlug): \(HTMLBalance.problem(in: page.html) ?? "")")
                #expect(!page.html.lowercased().contains("<script"), "\(file) \(story.fullSlug)")
                for warning in page.warnings {
                    #expect(warning.kind == .brokenLink, "\(file): \(warning)")
                }
            }
        }
        #expect(pages >= 25)
    }
}
