/// The synthetic space in several languages (field-level translation, as Storyblok exports it):
/// each page's visible text in every other language is a deterministic "translation", the same
/// text with every word replaced by a word of the language's own made-up vocabulary (German
/// compounds with umlauts, French with accents…), so translated pages differ from the default
/// in every word but keep its shape, links and length within a few percent.
///
/// One field falls back, as partly translated spaces do: in the last language, the subtitle of
/// every tenth page (index 5, 15, 25…) is left untranslated (`""`), so that page shows the
/// default subtitle there. A change to such a page's default subtitle changes its page in the
/// default language and in the last one.
extension SyntheticSpace {
    /// Language codes in order: the default (`en`), then the others.
    public static let languageCodes = [
        "en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "da", "fi", "cs", "hu", "ro", "el", "tr", "ja", "ko", "zh", "ru",
    ]

    /// The first `count` of ``languageCodes``; nil when there are not that many.
    public static func languages(_ count: Int) -> [String]? {
        (1...languageCodes.count).contains(count) ? Array(languageCodes.prefix(count)) : nil
    }

    /// The path of page `index` in `language` (`translated_slugs`' `path`): its `full_slug` in
    /// the default language (`languages.first`), `posts/de-post-<index>` in another. The home
    /// page keeps `home` (its page is the language's home, `de/`, whatever its path).
    public static func path(_ index: Int, in language: String, languages: [String]) -> String {
        index == 0 || language == languages.first ? fullSlug(index) : "posts/\(language)-post-\(index)"
    }

    /// Whether page `index` leaves its subtitle untranslated in `language`: in the last of
    /// several languages, every tenth page, from page 5.
    public static func subtitleFallsBack(_ index: Int, in language: String, languages: [String]) -> Bool {
        languages.count > 1 && language != languages.first && language == languages.last && index % 10 == 5
    }

    /// `page` as it reads in `language`: every visible text (title, subtitle, paragraphs,
    /// teasers, Markdown headings and words) translated, links and image the same; the subtitle
    /// is the default one where it falls back (``subtitleFallsBack(_:in:languages:)``). The
    /// default language (`languages.first`) reads `page` itself. `fullSlug` stays the default
    /// one, as the story's does; the page's path is ``path(_:in:languages:)``.
    public static func translation(of page: Page, to language: String, languages: [String]) -> Page {
        guard language != languages.first else { return page }
        let words = Vocabulary.of(language)
        var translated = page
        translated.title = words.translate(page.title)
        if !subtitleFallsBack(page.index, in: language, languages: languages) { translated.subtitle = words.translate(page.subtitle) }
        translated.paragraphs = page.paragraphs.map { runs in runs.map { Run(text: words.translate($0.text), link: $0.link) } }
        translated.teasers = page.teasers.map { Teaser(title: words.translate($0.title), text: words.translate($0.text), link: $0.link) }
        translated.markdown = words.translate(page.markdown)
        return translated
    }

    /// One language's words for the synthetic vocabulary, lower case and title case.
    struct Vocabulary: Sendable {
        private var words: [String: String] = [:]

        /// Every language's, made once.
        private static let all: [String: Vocabulary] = Dictionary(
            uniqueKeysWithValues: languageCodes.enumerated().map { ($1, Vocabulary(language: $1, number: $0)) })

        static func of(_ language: String) -> Vocabulary {
            all[language] ?? Vocabulary(language: language, number: languageCodes.count)
        }

        private init(language: String, number: Int) {
            let syllables = Self.syllables[language] ?? Self.otherSyllables
            // A seed from the code's bytes (Swift's Hasher is seeded anew in every process).
            let seed = language.utf8.reduce(UInt64(number)) { $0 &* 131 &+ UInt64($1) }
            var random = Generator(seed: seed)
            var used = Set<String>()
            for word in vocabulary {
                var made: String
                repeat {
                    let count = 1 + Int(random.next() % (language == "de" ? 3 : 2))
                    made = (0..<count).map { _ in syllables[Int(random.next() % UInt64(syllables.count))] }.joined()
                } while !used.insert(made).inserted
                words[word] = made
                words[word.prefix(1).uppercased() + word.dropFirst()] = made.prefix(1).uppercased() + made.dropFirst()
            }
        }

        /// `text` with every word of the vocabulary (a run of ASCII letters) replaced; anything
        /// else, link paths included (`/posts/post-12`, `/home`), stays as it is.
        func translate(_ text: String) -> String {
            var result = ""
            result.reserveCapacity(text.utf8.count + text.utf8.count / 4)
            let bytes = Array(text.utf8)
            var index = 0
            var copiedUpTo = 0
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            while index < bytes.count {
                guard isLetter(bytes[index]) else {
                    index += 1
                    continue
                }
                let start = index
                while index < bytes.count, isLetter(bytes[index]) { index += 1 }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                guard let replacement = words[word] else { continue }
                result += String(decoding: bytes[copiedUpTo..<start], as: UTF8.self)
                result += replacement
                copiedUpTo = index
            }
            result += String(decoding: bytes[copiedUpTo...], as: UTF8.self)
            return result
        }

        private static let syllables: [String: [String]] = [
            "de": ["ge", "ber", "schaft", "lich", "ung", "wald", "stein", "haus", "zeit", "keit", "ein", "über", "grün", "straße",
                   "blu", "berg", "nacht", "licht", "feld", "kraft", "spiel", "werk", "heit", "schön"],
            "fr": ["é", "té", "lieu", "ment", "eau", "champ", "rêve", "bel", "mai", "son", "chat", "peu", "tion", "cœur",
                   "vrai", "jour", "fête", "or", "pré", "lune", "coup", "mer", "ciel", "bois"],
            "es": ["ca", "sa", "ción", "mar", "sol", "niño", "ro", "llo", "ra", "to", "pe", "dra", "año", "luz", "va", "le",
                   "mente", "cer", "bien", "gue", "ría", "ta", "do", "que"],
            "it": ["ca", "sa", "zione", "ma", "sole", "bello", "ro", "tto", "lla", "ti", "pe", "dra", "anno", "luce", "va",
                   "le", "mente", "ere", "bene", "gio", "ria", "tà", "do", "che"],
        ]

        private static let otherSyllables = [
            "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ja", "en", "ar", "ol", "us", "ik", "em", "ta", "ba", "do",
            "fe", "gu", "hi", "pa", "se", "zo",
        ]
    }
}
