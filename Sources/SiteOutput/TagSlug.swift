import Foundation

/// The URL slug of a tag name, for tag pages at `tags/<slug>/`.
public enum TagSlug {
    /// The longest slug, in UTF-8 bytes: well within file-name limits (255 bytes on most file systems).
    private static let maximumLength = 100

    /// The slug of `tag`: lower-cased letters and digits (any script), with every run of other
    /// characters made one `-`, none at either end, and at most 100 UTF-8 bytes. Nil when no letter
    /// or digit is left (an empty tag, or only punctuation), so the caller can report the tag.
    ///
    /// Tags that differ only in case or punctuation (`Swift`, `swift`, `Swift!`) get the same slug.
    /// A slug is made only of letters, digits, combining marks and `-`, so it is never empty, never
    /// `.` or `..`, never starts with a dot and never contains `/` or `\`.
    public static func slug(for tag: String) -> String? {
        var slug = ""
        var separatorPending = false
        // Lower-casing first, then composing, so that `É`, `é` and `e` + U+0301 agree.
        for character in tag.lowercased().precomposedStringWithCanonicalMapping {
            guard let base = character.unicodeScalars.first, isLetterOrDigit(base) else {
                separatorPending = !slug.isEmpty
                continue
            }
            var piece = separatorPending ? "-" : ""
            piece.unicodeScalars.append(contentsOf: character.unicodeScalars.filter { isLetterOrDigit($0) || isMark($0) })
            guard slug.utf8.count + piece.utf8.count <= maximumLength else { break }
            slug += piece
            separatorPending = false
        }
        return slug.isEmpty ? nil : slug
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber: return true
        default: return false
        }
    }

    /// Combining marks, kept with the letter they belong to (as in Hindi or decomposed accents).
    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
