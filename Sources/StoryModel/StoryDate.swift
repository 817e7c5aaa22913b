/// A moment in time, to the second, read from a date as Storyblok stores it
/// (`2018-04-13T17:38:33.638Z`, `2024-03-30 08:00`, `2024-03-30T08:00:00+02:00`, `2024-03-30`)
/// and written as an RFC 3339 UTC timestamp (`2024-03-30T08:00:00Z`), for sorting, feeds and
/// sitemaps.
/// A date without an offset is taken as UTC, which is how Storyblok stores them; fractions of
/// a second are dropped. No Foundation formatters, whose output can vary by platform.
public struct StoryDate: Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSinceEpoch: Int

    public init(secondsSinceEpoch: Int) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// Reads `YYYY-MM-DD`, optionally followed by `T` or a space, `hh:mm`, optionally `:ss` and a
    /// fraction, and optionally `Z` or `±hh:mm`; nil when `text` is nil or not such a date.
    public init?(_ text: String?) {
        guard let text else { return nil }
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 2), reader.skip("-"),
              let day = reader.number(digits: 2), (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = Self.days(year: year, month: month, day: day) * 86_400
        if reader.skip("T") || reader.skip("t") || reader.skip(" ") {
            guard let hour = reader.number(digits: 2), reader.skip(":"), let minute = reader.number(digits: 2),
                  hour < 24, minute < 60 else { return nil }
            seconds += hour * 3600 + minute * 60
            if reader.skip(":") {
                guard let second = reader.number(digits: 2), second < 60 else { return nil }
                seconds += second
                if reader.skip(".") {
                    guard reader.number(digits: 1) != nil else { return nil }
                    while reader.number(digits: 1) != nil {}
                }
            }
            if !(reader.skip("Z") || reader.skip("z")) {
                let sign = reader.skip("+") ? 1 : (reader.skip("-") ? -1 : 0)
                if sign != 0 {
                    guard let hours = reader.number(digits: 2), reader.skip(":"), let minutes = reader.number(digits: 2),
                          hours < 24, minutes < 60 else { return nil }
                    seconds -= sign * (hours * 3600 + minutes * 60)
                }
            }
        }
        guard reader.isAtEnd else { return nil }
        secondsSinceEpoch = seconds
        // An offset can move a date in year 0000 or 9999 out of the four-digit years.
        guard (0...9999).contains(civil.year) else { return nil }
    }

    /// `YYYY-MM-DDThh:mm:ssZ`.
    public var rfc3339: String {
        let (year, month, day) = civil
        let second = secondsSinceEpoch - Self.days(year: year, month: month, day: day) * 86_400
        return "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
            + "T\(Self.pad(second / 3600, 2)):\(Self.pad(second / 60 % 60, 2)):\(Self.pad(second % 60, 2))Z"
    }

    public static func < (lhs: StoryDate, rhs: StoryDate) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    /// The UTC calendar date of this instant.
    private var civil: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days, for the proleptic Gregorian calendar.
        let z = Self.floorDivide(secondsSinceEpoch, 86_400) + 719_468
        let era = Self.floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
    private static func days(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = floorDivide(marchYear, 400)
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : (a - b + 1) / b
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Reads fixed-width numbers and separators from ASCII bytes, left to right.
private struct DigitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }

    /// The number written in the next `digits` bytes, consumed when they are all digits.
    mutating func number(digits: Int) -> Int? {
        guard position + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<position + digits] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        position += digits
        return value
    }

    /// Whether the next byte is `character`; consumed when it is.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }
}
