import StoryModel

/// The JSON parser on any bytes: it either fails with a position inside the input, or its
/// value, written back (compact and pretty), parses again to the same value. Objects are also
/// read as stories, which must never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBytes(data, size)
    let value: JSONValue
    do {
        value = try JSONValue(parsing: bytes)
    } catch {
        let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        require(error.line >= 1 && error.line <= lines, "error line \(error.line) outside the input's \(lines) lines: \(error)")
        require(error.column >= 1 && error.column <= bytes.count + 1, "error column \(error.column) past the input: \(error)")
        require(!error.message.isEmpty, "an error without a message at \(error.line):\(error.column)")
        return 0
    }
    for pretty in [false, true] {
        let written = value.jsonBytes(pretty: pretty)
        let reread: JSONValue
        do {
            reread = try JSONValue(parsing: written)
        } catch {
            require(false, "the parser refuses what the writer wrote (pretty: \(pretty)): \(error)\n\(String(decoding: written, as: UTF8.self))")
            return 0
        }
        require(reread == value, "written and read again, the value changed (pretty: \(pretty)):\n\(String(decoding: written, as: UTF8.self))")
    }
    require(JSONTape(encoding: value).value() == value, "a tree encoded as a tape reads back as another tree")
    if case .object(let object) = value {
        let tape = try! JSONTape(parsing: bytes)
        let tapeKind = tape.withReader { ContentKind(tape, $0, object: 0) }
        require(tapeKind == ContentKind(object), "classified on the tape as \(tapeKind), as a tree as \(ContentKind(object))")
        compareStories(tree: Result { () throws(StoryDecodingError) in try Story(json: object) }, tape: Result { () throws(StoryDecodingError) in try Story(tape: tape) })
        if case .object(let story)? = object["story"] { _ = try? Story(json: story) }
    }
    return 0
}

/// The same story object read as a tree and from its tape: the same error, or stories that are
/// equal and translate alike.
private func compareStories(tree: Result<Story, StoryDecodingError>, tape: Result<Story, StoryDecodingError>) {
    switch (tree, tape) {
    case (.failure(let treeError), .failure(let tapeError)):
        require(treeError == tapeError, "as a tree the story fails with \(treeError), from its tape with \(tapeError)")
    case (.success(let fromTree), .success(let fromTape)):
        require(fromTree == fromTape, "the story read from its tape differs from the tree's")
        for (language, isDefault) in [("de", false), ("en", true)] {
            let treeTranslation = fromTree.translated(to: language, isDefault: isDefault)
            let tapeTranslation = fromTape.translated(to: language, isDefault: isDefault)
            require(treeTranslation.raw == tapeTranslation.raw, "translated to \(language), the tape's story object differs from the tree's")
            require(treeTranslation.digest == tapeTranslation.digest, "translated to \(language), the tape's digest differs from the tree's")
        }
    default:
        require(false, "as a tree the story reads as \(tree), from its tape as \(tape)")
    }
}
