import Foundation

/// A URL segment made from a text: a tag's page (`tags/<slug>/`), a heading's id.
public enum TextSlug {
    /// The slug of `text`: lower-cased letters and digits (any script), with every run of other
    /// characters made one `-`, none at either end, and at most `maximumBytes` UTF-8 bytes. Nil
    /// when no letter or digit is left (empty text, or only punctuation).
    ///
    /// Texts that differ only in case or punctuation (`Swift`, `swift`, `Swift!`) get the same
    /// slug. A slug is made only of letters, digits, combining marks and `-`, so it is never
    /// empty, never `.` or `..`, never starts with a dot and never contains `/` or `\`.
    public static func slug(of text: String, maximumBytes: Int = .max) -> String? {
        var slug = ""
        var separatorPending = false
        // Lower-casing first, then composing, so that `É`, `é` and `e` + U+0301 agree.
        for character in text.lowercased().precomposedStringWithCanonicalMapping {
            guard let base = character.unicodeScalars.first, isLetterOrDigit(base) else {
                separatorPending = !slug.isEmpty
                continue
            }
            var piece = separatorPending ? "-" : ""
            piece.unicodeScalars.append(contentsOf: character.unicodeScalars.filter { isLetterOrDigit($0) || isMark($0) })
            guard slug.utf8.count + piece.utf8.count <= maximumBytes else { break }
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
