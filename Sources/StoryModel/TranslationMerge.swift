/// Folds a language's version of a story back into the story as an export holds it: each
/// field whose value differs in that language gains a `<field>__i18n__<lang>` sibling, the
/// inverse of ``Story/translated(to:isDefault:)``. `pull` writes stories so, since the API
/// answers each language separately, and a build from the pulled folder must show what the
/// API showed.
extension Story {
    /// This story (the default language's version) with `translation`'s fields of `language`
    /// added where they differ. Blocks fields are not translatable, so their blocks are
    /// compared field by field; every other value (text, richtext, links, assets) is one field.
    public func addingTranslation(_ translation: Story, language: String) -> Story {
        guard case .object(let content) = self.content, case .object(let translated) = translation.content else { return self }
        var object = raw
        object["content"] = .object(Self.merge(content, translated, language: language))
        return (try? Story(json: object)) ?? self
    }

    private static func merge(_ block: JSONObject, _ translated: JSONObject, language: String) -> JSONObject {
        var merged = JSONObject()
        for entry in block.entries {
            merged[entry.key] = entry.value
            guard let other = translated[entry.key], other != entry.value else { continue }
            if case .array(let blocks) = entry.value, case .array(let otherBlocks) = other, blocks.count == otherBlocks.count,
               let pairs = blockPairs(blocks, otherBlocks) {
                merged[entry.key] = .array(pairs.map { .object(merge($0, $1, language: language)) })
            } else if case .object(let nested) = entry.value, case .object(let otherNested) = other, isBlock(nested), isBlock(otherNested) {
                merged[entry.key] = .object(merge(nested, otherNested, language: language))
            } else {
                merged[entry.key + "__i18n__" + language] = other
            }
        }
        for entry in translated.entries where block[entry.key] == nil {
            merged[entry.key + "__i18n__" + language] = entry.value
        }
        return merged
    }

    /// The two lists as pairs of blocks, when both hold blocks only.
    private static func blockPairs(_ blocks: [JSONValue], _ others: [JSONValue]) -> [(JSONObject, JSONObject)]? {
        var pairs: [(JSONObject, JSONObject)] = []
        for (block, other) in zip(blocks, others) {
            guard case .object(let a) = block, case .object(let b) = other, isBlock(a), isBlock(b) else { return nil }
            pairs.append((a, b))
        }
        return pairs
    }

    private static func isBlock(_ object: JSONObject) -> Bool {
        object["component"]?.stringValue != nil
    }
}
