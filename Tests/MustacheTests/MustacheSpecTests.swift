import Foundation
import Mustache
import Testing
import TestSupport

/// One test of the Mustache spec suite, keyed by file and index (two inheritance tests share a name).
struct SpecCase: Sendable, CustomTestStringConvertible {
    /// The spec module the test belongs to: `core`, `dynamic-names` or `inheritance`.
    let module: String
    let file: String
    let index: Int
    let name: String
    let template: String
    let partials: [String: String]
    let data: MustacheValue
    let expected: String

    var testDescription: String { "\(file) #\(index): \(name)" }

    /// The name the test's own template gets in its library; no spec partial uses it.
    private static let templateName = "spec test template"

    /// Renders the test's template with its partials, missing partials rendering empty as the spec asks.
    func render() throws -> String {
        var templates = partials
        templates[Self.templateName] = template
        let library = try TemplateLibrary(templates: templates)
        return try library.render(Self.templateName, context: data, missingPartials: .renderEmpty).text
    }

    func passes() -> Bool {
        (try? render()) == expected
    }
}

/// The spec files this engine conforms to; `~lambdas` needs code in the data and is covered by `LambdaTests`.
enum MustacheSpec {
    static let modules: [(file: String, module: String)] = [
        ("comments", "core"), ("delimiters", "core"), ("interpolation", "core"), ("inverted", "core"),
        ("partials", "core"), ("sections", "core"),
        ("~dynamic-names", "dynamic-names"), ("~inheritance", "inheritance"),
    ]

    static let isAvailable = SharedFixtures.available("mustache-spec")

    /// Every case of every file, in file order; empty when the suite is absent.
    static let cases: [SpecCase] = {
        guard let folder = SharedFixtures.url("mustache-spec") else { return [] }
        return modules.flatMap { file, module in
            let url = folder.appendingPathComponent("\(file).json")
            guard let data = try? Data(contentsOf: url),
                let spec = try? JSONDecoder().decode(SpecFile.self, from: data)
            else { return [SpecCase]() }
            return spec.tests.enumerated().map { index, test in
                SpecCase(
                    module: module, file: file, index: index, name: test.name, template: test.template,
                    partials: test.partials ?? [:], data: test.data.value, expected: test.expected)
            }
        }
    }()

    private struct SpecFile: Decodable {
        let tests: [SpecTest]
    }

    private struct SpecTest: Decodable {
        let name: String
        let data: JSONValue
        let template: String
        let partials: [String: String]?
        let expected: String
    }
}

/// JSON decoded into a ``MustacheValue``.
struct JSONValue: Decodable {
    let value: MustacheValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let text = try? container.decode(String.self) {
            value = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            value = .array(items.map(\.value))
        } else {
            var object = MustacheObject()
            for (name, member) in try container.decode([String: JSONValue].self) { object[name] = member.value }
            value = .object(object)
        }
    }
}

@Suite(
    "Mustache spec",
    .enabled(
        if: MustacheSpec.isAvailable,
        "the Mustache spec suite is not at ../shared/mustache-spec/ next to the repository; spec tests skipped"))
struct MustacheSpecTests {
    @Test("each spec case renders its expected text", arguments: MustacheSpec.cases)
    func specCase(_ specCase: SpecCase) throws {
        let output = try specCase.render()
        #expect(
            output == specCase.expected,
            "template: \(specCase.template.debugDescription)\npartials: \(specCase.partials)")
    }

    @Test("all 184 spec cases pass, and the summary line is printed")
    func summary() {
        let cases = MustacheSpec.cases
        let passing = cases.filter { $0.passes() }
        let modules = ["core", "dynamic-names", "inheritance"].map { module in
            "\(module) \(passing.count { $0.module == module })/\(cases.count { $0.module == module })"
        }
        print("mustache spec: \(passing.count)/\(cases.count) passed (\(modules.joined(separator: ", ")))")
        #expect(cases.count == 184)
        #expect(passing.count == cases.count)
    }
}
