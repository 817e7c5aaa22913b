/// Field-level translation (Storyblok's "translatable fields"): one story serves every
/// language, each translated field sitting beside its default as `<field>__i18n__<lang>`
/// (`headline__i18n__de`), as the Management API and the CLI export it. Blocks fields are not
/// translatable, but the fields of the blocks inside them are, so translation walks the whole
/// tree. A missing or empty translation (null, `""`, `[]`) falls back to the default value, as
/// the Content Delivery API does.
extension Story {
    /// The story as it reads in `language`: every translatable field holds its value in that
    /// language (or the default's), and no `__i18n__` key is left. The default language
    /// (`isDefault`) takes no translation; its story only loses the `__i18n__` keys.
    ///
    /// - `content`: see ``JSONValue/translated(to:isDefault:)``.
    /// - `name` (in ``raw`` too): the name of the `translated_slugs` entry for `language`, when
    ///   non-empty; otherwise the default.
    /// - `full_slug` stays the default one: the content tree has one structure in every
    ///   language. The page path in a language is ``path(in:)``.
    /// - `lang` in ``raw`` is `language`.
    /// - ``digest``: the translated tree's, hashed here (the caller translates in parallel), so
    ///   that a change to one language's fields changes only that language's story, and a
    ///   rebuild renders only its pages again. A story with nothing to translate has the
    ///   original's digest with the language, which is as good and costs no hashing.
    ///
    /// Every other key of ``raw`` stays as it was.
    ///
    /// A story read from a file notes the digest in its ``translationDigests``, which the build
    /// cache keeps with the file. A story that knows it already is translated without reading
    /// its content: the translation is read from its head, its content translated when first
    /// asked for, and waits where this story's does (``contentStore``).
    public func translated(to language: String, isDefault: Bool) -> Story {
        let key = TranslationDigests.key(language: language, isDefault: isDefault)
        if givenDigest != nil, let known = translationDigests.digest(for: key) {
            var head = self.head
            translateHead(&head, to: language, isDefault: isDefault)
            let original = self
            let story = try? Story(head: head, digest: known, parkingIn: contentStore) {
                original.readableRaw.map { raw in
                    (JSONTape(encoding: .object(original.translated(raw, to: language, isDefault: isDefault).object)), 0)
                }
            }
            if let story { return story }
        }
        // Cannot fail: uuid, full_slug and content are those of a story already read.
        guard let story = translatedOnTape(to: language, isDefault: isDefault) ?? translatedTree(to: language, isDefault: isDefault) else {
            return self
        }
        if givenDigest != nil { translationDigests.note(story.digest, for: key) }
        return story
    }

    /// ``translated(to:isDefault:)`` of the story's tree.
    private func translatedTree(to language: String, isDefault: Bool) -> Story? {
        let (object, contentChanged) = translated(raw, to: language, isDefault: isDefault)
        let digest = translatedDigest(contentChanged: contentChanged, language: language, name: object["name"]) { $0.combine(.object(object)) }
        return try? Story(json: object, digest: digest)
    }

    /// The digest of this story in `language`, named `name` there: when its content changed,
    /// that of its translated story object, which `combineObject` hashes; else this story's.
    /// Either way with the language and the name, so that each language's story has its own.
    private func translatedDigest(
        contentChanged: Bool, language: String, name: JSONValue?, combineObject: (inout Fingerprint) -> Void
    ) -> String {
        var digest = Fingerprint()
        if contentChanged {
            combineObject(&digest)
        } else {
            digest.combine(self.digest)
        }
        digest.combine(language)
        digest.combine(name?.stringValue ?? "")
        return digest.hex
    }

    /// `object`, this story's object, as it reads in `language`, and whether its content changed.
    private func translated(_ object: JSONObject, to language: String, isDefault: Bool) -> (object: JSONObject, contentChanged: Bool) {
        var object = object
        let content = object["content"]?.translatedIfChanged(FieldTranslator(language: language, isDefault: isDefault))
        if let content { object["content"] = content }
        translateHead(&object, to: language, isDefault: isDefault)
        return (object, content != nil)
    }

    /// ``translated(to:isDefault:)`` of a story read into a tape: its translated content goes
    /// into a tape of its own words over the original's strings (a translation only picks
    /// values and keys the original holds), beside its translated head. The digest is the one
    /// the translated tree would have. Nil for a story not read into a tape.
    private func translatedOnTape(to language: String, isDefault: Bool) -> Story? {
        guard let (tape, content) = contentOnTape, let position = contentPosition else { return nil }
        var head = self.head
        translateHead(&head, to: language, isDefault: isDefault)
        var words = JSONTapeBuilder()
        let translator = FieldTranslator(language: language, isDefault: isDefault)
        let contentChanged = tape.withReader { translator.translate(at: content, of: $0, into: &words) }
        let translated = JSONTape(words: words.words, strings: tape.strings)
        let digest = translatedDigest(contentChanged: contentChanged, language: language, name: head["name"]) { digest in
            // As `combine(.object(object))` hashes the translated story object.
            digest.combine(6)
            digest.combine(Int64(head.count + 1))
            for (index, entry) in head.entries.enumerated() {
                if index == position { Self.combineContent(translated, into: &digest) }
                digest.combine(entry.key)
                digest.combine(entry.value)
            }
            if position >= head.count { Self.combineContent(translated, into: &digest) }
        }
        return try? Story(head: head, contentAt: position, of: translated, digest: digest)
    }

    private static func combineContent(_ tape: JSONTape, into digest: inout Fingerprint) {
        digest.combine("content")
        tape.withReader { digest.combine($0, at: 0) }
    }

    /// Puts the name in `language` and the language in `object`, this story's object or head.
    private func translateHead(_ object: inout JSONObject, to language: String, isDefault: Bool) {
        if !isDefault, let name = translatedSlug(for: language)?["name"]?.stringValue, !name.isEmpty {
            object["name"] = .string(name)
        }
        object["lang"] = .string(language)
    }

    /// The story's page path in `language`: the `path` of its `translated_slugs` entry for that
    /// language when present and non-empty, else ``fullSlug``. The path is normalised like
    /// `full_slug` (leading slashes stripped), and ends with `/` exactly when ``fullSlug`` does,
    /// so a folder's start page stays one in every language.
    ///
    /// The path comes from content: validate it like any slug before making a file path of it.
    public func path(in language: String) -> String {
        guard let path = translatedSlug(for: language)?["path"]?.stringValue else { return fullSlug }
        var normalized = Substring(Story.normalizedSlug(path))
        while normalized.last == "/" { normalized = normalized.dropLast() }
        guard !normalized.isEmpty else { return fullSlug }
        return fullSlug.hasSuffix("/") ? normalized + "/" : String(normalized)
    }

    /// The `translated_slugs` entry (`{"path": …, "name": …, "lang": …}`) for `language`.
    private func translatedSlug(for language: String) -> JSONValue? {
        guard let entries = field("translated_slugs")?.arrayValue else { return nil }
        return entries.first { $0["lang"]?.stringValue == language }
    }
}

extension JSONValue {
    /// This tree as it reads in `language`: in every object, at any depth (blocks in arrays,
    /// richtext documents and the blocks inside them included), a key `k` takes the value of
    /// `k__i18n__<language>` when that is present and not null, `""` or `[]`, keeping its own
    /// position; every key containing `__i18n__` is removed. A translation whose default key is
    /// absent takes the default key's name in the translation's position. The default language
    /// (`isDefault`) takes no translation and only loses the `__i18n__` keys.
    ///
    /// Objects and arrays with nothing to translate below them are returned as they are, not
    /// copied: most of a space has no translation keys.
    public func translated(to language: String, isDefault: Bool) -> JSONValue {
        translatedIfChanged(FieldTranslator(language: language, isDefault: isDefault)) ?? self
    }

    /// The translated tree, or nil when nothing in it changes.
    fileprivate func translatedIfChanged(_ translator: FieldTranslator) -> JSONValue? {
        switch self {
        case .object(let object): return translator.translate(object).map(JSONValue.object)
        case .array(let array): return translator.translate(array).map(JSONValue.array)
        default: return nil
        }
    }
}

/// The walk behind ``JSONValue/translated(to:isDefault:)``: each function returns nil when its
/// value stays as it is, so unchanged parts of the tree are shared, not copied.
private struct FieldTranslator {
    /// `__i18n__`
    static let marker: [UInt8] = Array("__i18n__".utf8)

    /// `__i18n__<language>`: the end of the keys that translate into this language.
    let suffix: [UInt8]
    let isDefault: Bool

    init(language: String, isDefault: Bool) {
        suffix = Self.marker + Array(language.utf8)
        self.isDefault = isDefault
    }

    func translate(_ array: [JSONValue]) -> [JSONValue]? {
        var copy: [JSONValue]?
        for index in array.indices {
            guard let changed = array[index].translatedIfChanged(self) else { continue }
            if copy == nil { copy = array }
            copy![index] = changed
        }
        return copy
    }

    func translate(_ object: JSONObject) -> JSONObject? {
        guard object.entries.contains(where: { Self.hasMarker($0.key) }) else {
            // Nothing to translate here: only what lies below may change.
            var copy: [JSONObject.Entry]?
            for index in object.indices {
                guard let changed = object[index].value.translatedIfChanged(self) else { continue }
                if copy == nil { copy = object.entries }
                copy![index].value = changed
            }
            return copy.map { JSONObject(distinctEntries: $0) }
        }

        var translations: [(key: String, value: JSONValue)] = []
        if !isDefault {
            for entry in object.entries {
                if let key = defaultKey(of: entry.key), Self.isFilled(entry.value) { translations.append((key, entry.value)) }
            }
        }
        var entries: [JSONObject.Entry] = []
        entries.reserveCapacity(object.count)
        for entry in object.entries {
            if Self.hasMarker(entry.key) {
                // A translation of a key the object lacks takes that key here.
                if let key = defaultKey(of: entry.key), Self.isFilled(entry.value), object[key] == nil {
                    entries.append(JSONObject.Entry(key: key, value: entry.value.translatedIfChanged(self) ?? entry.value))
                }
                continue
            }
            let value = translations.first { $0.key == entry.key }?.value ?? entry.value
            entries.append(JSONObject.Entry(key: entry.key, value: value.translatedIfChanged(self) ?? value))
        }
        return JSONObject(distinctEntries: entries)
    }

    /// Appends the value at `index` of `reader`, translated, to `tape`, whose strings are to be
    /// `reader`'s: every key and value it writes is one of theirs, or a key's first bytes.
    /// Returns whether anything changed.
    func translate(at index: Int, of reader: JSONTape.Reader, into tape: inout JSONTapeBuilder) -> Bool {
        switch reader.kind(at: index) {
        case .array:
            let start = tape.startContainer(.array)
            var changed = false
            reader.forEachElement(ofArray: index) { _, element in
                if translate(at: element, of: reader, into: &tape) { changed = true }
            }
            tape.finishContainer(at: start, count: reader.count(at: index))
            return changed
        case .object:
            return translate(objectAt: index, of: reader, into: &tape)
        default:
            tape.appendScalar(at: index, of: reader)
            return false
        }
    }

    /// ``translate(_:)-(JSONObject)`` of the object at `index` of a tape.
    private func translate(objectAt index: Int, of reader: JSONTape.Reader, into tape: inout JSONTapeBuilder) -> Bool {
        var hasMarkers = false
        reader.forEachEntry(ofObject: index) { key, _ in
            hasMarkers = Self.contains(marker: reader.bytes(at: key))
            return !hasMarkers
        }
        let start = tape.startContainer(.object)
        var count = 0
        guard hasMarkers else {
            var changed = false
            reader.forEachEntry(ofObject: index) { key, value in
                tape.appendScalar(at: key, of: reader)
                if translate(at: value, of: reader, into: &tape) { changed = true }
                count += 1
                return true
            }
            tape.finishContainer(at: start, count: count)
            return changed
        }
        // The translations into this language: their keys' indexes, the length of the key they
        // translate, and their values.
        var translations: [(key: Int, base: Int, value: Int)] = []
        if !isDefault {
            reader.forEachEntry(ofObject: index) { key, value in
                if let base = defaultKeyLength(of: reader.bytes(at: key)), Self.isFilled(value, of: reader) { translations.append((key, base, value)) }
                return true
            }
        }
        reader.forEachEntry(ofObject: index) { key, value in
            let name = reader.bytes(at: key)
            if Self.contains(marker: name) {
                // A translation of a key the object lacks takes that key here.
                if let base = defaultKeyLength(of: name), Self.isFilled(value, of: reader),
                   reader.value(forKeyBytes: UnsafeBufferPointer(rebasing: name[..<base]), inObject: index) == nil {
                    tape.appendPrefix(ofStringAt: key, count: base, of: reader)
                    _ = translate(at: value, of: reader, into: &tape)
                    count += 1
                }
                return true
            }
            let translation = translations.first { JSONTape.Reader.equal(UnsafeBufferPointer(rebasing: reader.bytes(at: $0.key)[..<$0.base]), name) }
            tape.appendScalar(at: key, of: reader)
            _ = translate(at: translation?.value ?? value, of: reader, into: &tape)
            count += 1
            return true
        }
        tape.finishContainer(at: start, count: count)
        return true
    }

    /// ``defaultKey(of:)`` of a key's bytes: how many of its first bytes the default key is.
    private func defaultKeyLength(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !isDefault, key.count > suffix.count, key.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        let base = key.count - suffix.count
        return Self.contains(marker: UnsafeBufferPointer(rebasing: key[..<base])) ? nil : base
    }

    /// ``isFilled(_:)`` of the value at `index` of a tape.
    private static func isFilled(_ index: Int, of reader: JSONTape.Reader) -> Bool {
        switch reader.kind(at: index) {
        case .null: return false
        case .string: return !reader.bytes(at: index).isEmpty
        case .array: return reader.count(at: index) > 0
        default: return true
        }
    }

    /// `headline` for `headline__i18n__<language>` (not for the default language); nil for any
    /// other key.
    private func defaultKey(of key: String) -> String? {
        var key = key
        return key.withUTF8 { bytes in defaultKeyLength(of: bytes).map { String(decoding: bytes[..<$0], as: UTF8.self) } }
    }

    /// Whether a translation holds a value: not null, `""` or `[]`.
    private static func isFilled(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .string(let string): return !string.isEmpty
        case .array(let array): return !array.isEmpty
        default: return true
        }
    }

    /// Whether `key` contains `__i18n__`: a byte scan, since every key of the tree is asked.
    static func hasMarker(_ key: String) -> Bool {
        let utf8 = key.utf8
        guard utf8.count >= marker.count else { return false }
        if let found = utf8.withContiguousStorageIfAvailable({ contains(marker: $0) }) { return found }
        return Array(utf8).withUnsafeBufferPointer { contains(marker: $0) }
    }

    static func contains(marker bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let last = bytes.count - marker.count
        guard last >= 0 else { return false }
        var index = 0
        while index <= last {
            // `__i18n__` starts with `__`; most keys have no `__` at all.
            if bytes[index] == UInt8(ascii: "_"), bytes[index + 1] == UInt8(ascii: "_"), bytes[index + 2] == UInt8(ascii: "i"),
                bytes[index + 3] == UInt8(ascii: "1"), bytes[index + 4] == UInt8(ascii: "8"), bytes[index + 5] == UInt8(ascii: "n"),
                bytes[index + 6] == UInt8(ascii: "_"), bytes[index + 7] == UInt8(ascii: "_")
            {
                return true
            }
            index += 1
        }
        return false
    }
}
