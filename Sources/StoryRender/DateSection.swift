import Foundation
import Mustache
import StoryModel

/// The date formats of `storysite.json` (`"dates"`, `"timeZone"`): each is a section every
/// template sees at the top level, `{{#date}}{{story.first_published_at}}{{/date}}`, that
/// renders its text, reads it as a date and writes it with the format's ICU pattern
/// (`d MMMM yyyy`), in the page's language and the site's time zone.
public struct DateFormats: Sendable, Hashable {
    /// One format: its ICU pattern, and whether it is written in the page's language.
    public struct Format: Sendable, Hashable {
        /// The ICU date pattern (`d MMMM yyyy`, `yyyy-MM-dd'T'HH:mm:ssXXX`).
        public var pattern: String
        /// Whether the page's language names the months and days and picks the calendar and
        /// digits; otherwise the format is machine-readable: `en_US_POSIX`, Gregorian, ASCII digits.
        public var usesPageLanguage: Bool

        public init(pattern: String, usesPageLanguage: Bool = true) {
            self.pattern = pattern
            self.usesPageLanguage = usesPageLanguage
        }
    }

    /// RFC 3339 (`2024-03-30T09:00:00+01:00`, `2024-03-30T08:00:00Z` in UTC): the pattern of `iso`.
    public static let isoPattern = "yyyy-MM-dd'T'HH:mm:ssXXX"
    /// The built-in `iso`: RFC 3339, whatever the page's language.
    public static let iso = Format(pattern: isoPattern, usesPageLanguage: false)
    /// The formats of a site whose `storysite.json` has no `dates`: `date` (`30 Mar 2024`) and `iso`.
    public static let builtIn: [String: Format] = ["date": Format(pattern: "d MMM yyyy"), "iso": iso]
    /// The top-level names of the page contract, which a format may not take.
    public static let reservedNames = ["page", "site", "global", "story", "markdown", "collections", "tags", "tag"]
    /// UTC, the time zone when `storysite.json` names none.
    public static let utc = TimeZone(identifier: "UTC")!

    /// The formats by section name.
    public var formats: [String: Format]
    /// The time zone dates are shown in.
    public var timeZone: TimeZone

    /// `formats` (the built-ins by default), shown in `timeZone`.
    public init(formats: [String: Format] = DateFormats.builtIn, timeZone: TimeZone = DateFormats.utc) {
        self.formats = formats
        self.timeZone = timeZone
    }

    /// The formats `storysite.json` names (name → ICU pattern), written in the page's language:
    /// they replace the built-in `date`; the built-in `iso` stays unless one of them is named
    /// `iso`. Nil `configured` (no `dates`) keeps the built-ins.
    public init(configured: [String: String]?, timeZone: TimeZone? = nil) {
        var formats = Self.builtIn
        if let configured {
            formats = ["iso": Self.iso]
            for (name, pattern) in configured { formats[name] = Format(pattern: pattern) }
        }
        self.init(formats: formats, timeZone: timeZone ?? Self.utc)
    }

    /// Whether `name` can name a format: letters, digits, `_` and `-`, so that `{{#name}}`
    /// reaches it (a dot would be read as a path).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-")
        }
    }

    /// The formats and time zone as one text, for the build's key.
    public var fingerprintText: String {
        formats.keys.sorted().map { name in
            let format = formats[name]!
            return "\(name)=\(format.usesPageLanguage ? "page" : "posix") \(format.pattern)"
        }.joined(separator: "\n") + "\ntimeZone=\(timeZone.identifier)"
    }
}

/// The sections of ``DateFormats``: `{{#date}}…{{/date}}` renders its text in the current
/// context, reads it as a date as Storyblok writes them (``StoryDate``: API timestamps
/// `2024-03-30T08:00:00.000Z`, datetime fields `2024-03-30 08:00`, which are UTC) and writes it
/// with the format's pattern. Empty text writes nothing; text that is not a date is written as it
/// is, with a warning.
enum DateSection {
    /// The section named `name`, for a page in `locale` (an ICU locale identifier) whose
    /// warnings go to `log` under `story`.
    static func lambda(
        name: String, format: DateFormats.Format, locale: String, timeZone: TimeZone, story: String, log: RenderLog
    ) -> MustacheValue {
        .lambda(MustacheLambda { invocation in
            guard let section = invocation.text else {
                log.add(RenderWarning(
                    kind: .notADate, story: story, fieldPath: "{{\(name)}}",
                    message: "'\(name)' formats the date inside it: write {{#\(name)}}…{{/\(name)}}"))
                return .html("")
            }
            let text = try invocation.render(section)
            let value = text.trimmingSectionWhitespace()
            guard !value.isEmpty else { return .html("") }
            guard let date = StoryDate(value) else {
                let location = "{{#\(name)}}" + section.trimmingSectionWhitespace() + "{{/\(name)}}"
                log.add(RenderWarning(
                    kind: .notADate, story: story, fieldPath: location,
                    message: "'\(unescaped(value))' is not a date, so it is shown as it is; dates look like 2024-03-30T08:00:00.000Z or 2024-03-30 08:00"))
                // Rendered by the section, so already escaped like any {{value}}.
                return .html(text)
            }
            let formatter = DateFormatterCache.shared.formatter(
                pattern: format.pattern, locale: format.usesPageLanguage ? locale : DateFormatterCache.posix, timeZone: timeZone)
            let formatted = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(date.secondsSinceEpoch)))
            return .html(HTMLEscaping.attribute(formatted))
        })
    }

    /// `html` (text a section rendered, so escaped) as the text it shows, for messages.
    private static func unescaped(_ html: String) -> String {
        guard html.contains("&") else { return html }
        return html.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&#039;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The locale a page's dates are written in: the page's language (`page.lang`) when the site
    /// has languages; else the story's `lang` when it is a language code (Storyblok writes
    /// `default` for the default language); else English.
    static func locale(language: String?, storyLang: String?) -> String {
        if let language, isLanguageCode(language) { return language }
        if let storyLang, isLanguageCode(storyLang) { return storyLang }
        return "en"
    }

    /// Whether `code` is a language code as Storyblok writes them: two or three lower-case
    /// letters, then optionally `-` and a region or variant (`de`, `de-at`, `pt-br`).
    static func isLanguageCode(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ ("a"..."z").contains($0) }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        }
    }
}

/// One `DateFormatter` per pattern, locale and time zone, made when first asked for and shared
/// by every page of every build in the process. Making a formatter loads ICU data, which costs
/// far more than formatting with it. Foundation's `DateFormatter` is `Sendable` (it guards its
/// state with a lock), and these are never changed once made, so pages on any thread format
/// with them at once.
final class DateFormatterCache: @unchecked Sendable {
    static let shared = DateFormatterCache()
    /// The locale of machine-readable formats.
    static let posix = "en_US_POSIX"

    private struct Key: Hashable {
        var pattern: String
        var locale: String
        var timeZone: String
    }

    private let lock = NSLock()
    private var formatters: [Key: DateFormatter] = [:]

    func formatter(pattern: String, locale: String, timeZone: TimeZone) -> DateFormatter {
        let key = Key(pattern: pattern, locale: locale, timeZone: timeZone.identifier)
        return lock.withLock {
            if let formatter = formatters[key] { return formatter }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = timeZone
            formatter.dateFormat = pattern
            formatters[key] = formatter
            return formatter
        }
    }
}
