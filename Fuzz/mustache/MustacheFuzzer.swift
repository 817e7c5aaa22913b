import Mustache

/// The Mustache compiler and renderer on any templates. The input is one or more templates
/// separated by NUL bytes: the first is `main`, each later one is `name`, byte 0x01, text (so
/// the spec's partials and parents keep their names). Every template either compiles or fails
/// with errors that name a template and a position in it; a library that compiles renders
/// `main` against a fixed context (scalars, HTML, lists, nested objects, lambdas) or fails with
/// a ``RenderError`` or ``TemplateError``, and renders the same text twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let parts = inputBytes(data, size).split(separator: 0, omittingEmptySubsequences: false)
    var templates: [String: String] = [:]
    for (number, part) in parts.enumerated() {
        if number == 0 {
            templates["main"] = String(decoding: part, as: UTF8.self)
        } else if let separator = part.firstIndex(of: 1) {
            templates[String(decoding: part[..<separator], as: UTF8.self)] = String(decoding: part[(separator + 1)...], as: UTF8.self)
        }
    }
    let library: TemplateLibrary
    do {
        library = try TemplateLibrary(templates: templates)
    } catch let errors as TemplateErrors {
        require(!errors.errors.isEmpty, "compiling failed without an error")
        for error in errors.errors {
            guard let text = templates[error.path] else {
                require(false, "an error names no template: \(error)")
                continue
            }
            let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
            require(error.line >= 1 && error.line <= lines && error.column >= 1, "an error outside its template: \(error)")
        }
        return 0
    } catch {
        require(false, "compiling threw \(type(of: error)), not TemplateErrors: \(error)")
        return 0
    }
    let first = render(library)
    require(first == render(library), "rendering the same library twice gave different results")
    return 0
}

/// What rendering `main` gave: its text, or the error's description.
private func render(_ library: TemplateLibrary) -> String {
    do {
        return try library.render("main", context: fuzzContext).text
    } catch let error as RenderError {
        return "RenderError: \(error)"
    } catch let error as TemplateErrors {
        return "TemplateErrors: \(error)"
    } catch let error as TemplateError {
        return "TemplateError: \(error)"
    } catch {
        require(false, "rendering threw \(type(of: error)): \(error)")
        return ""
    }
}

/// Short names, so that the fuzzer finds them: every kind of value, nested.
private let fuzzContext: MustacheValue = {
    let item: MustacheValue = ["n": 1, "s": "<b>&\"'", "t": true, "list": [1, 2]]
    return [
        "a": "text & <tag>", "b": true, "f": false, "z": 0, "n": 3.5, "e": "", "null": .null,
        "h": .html("<em>safe</em>"), "list": [item, ["n": 2, "s": "two"], "three"], "none": [],
        "o": ["a": "inner", "o": ["a": "deeper", "list": [1]]],
        "component": "c", "c": "partial",
        "lambda": .lambda(MustacheLambda { invocation in .string(invocation.text.map { "[\($0)]" } ?? "{{a}}") }),
        "wrap": .lambda(MustacheLambda { invocation in .string("<" + (try invocation.render(invocation.text ?? "")) + ">") }),
        "raw": .lambda(MustacheLambda { _ in .html("<i>raw</i>") }),
    ]
}()
