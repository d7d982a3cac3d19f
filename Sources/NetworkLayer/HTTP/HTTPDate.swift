import Foundation

/// An HTTP date (RFC 9110 section 5.6.7), as `Date`, `Expires`, `Last-Modified` and `Retry-After` carry
/// it; the one parser the cache, the range rules and the retry middleware read dates with.
///
/// Dates are read by hand, not with `DateFormatter`: the grammar is fixed, and making a formatter and
/// trying the three formats cost about 360 µs a value on Linux (measured), which a server could make
/// every response pay.
enum HTTPDate {
    /// `text` read as an HTTP date: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850
    /// form (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime (`Sun Nov  6 08:49:37 1994`); `nil` otherwise.
    /// - Parameters:
    ///   - text: The header's value.
    ///   - now: Decides the century of an RFC 850 two-digit year, as the RFC says: a year more than 50
    ///     years ahead of `now` is the most recent past year with those digits.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let parts: (day: Int, month: Int, year: Int, time: String)?
        switch words.count {
        case 6 where words[0].hasSuffix(",") && words[5] == "GMT":  // IMF-fixdate
            parts = gather(
                number(words[1], digits: 2), month(words[2]), number(words[3], digits: 4), words[4])
        case 4 where words[0].hasSuffix(",") && words[3] == "GMT":  // RFC 850
            let date = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3, let short = number(date[2], digits: 2) else { return nil }
            parts = gather(number(date[0], digits: 2), month(date[1]), century(short, now: now), words[2])
        case 5:  // asctime: the day is one or two digits
            parts = gather(
                number(words[2], digits: 1) ?? number(words[2], digits: 2), month(words[1]),
                number(words[4], digits: 4), words[3])
        default:
            parts = nil
        }
        guard let parts, let (hour, minute, second) = time(parts.time),
            let days = daysSince1970(year: parts.year, month: parts.month, day: parts.day)
        else { return nil }
        let seconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: seconds)
    }

    private static func gather(_ day: Int?, _ month: Int?, _ year: Int?, _ time: String)
        -> (day: Int, month: Int, year: Int, time: String)?
    {
        guard let day, let month, let year else { return nil }
        return (day, month, year, time)
    }

    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func number(_ text: String, digits: Int) -> Int? {
        guard text.utf8.count == digits, text.utf8.allSatisfy(isDigit) else { return nil }
        return Int(text)
    }

    private static func month(_ text: String) -> Int? {
        months.firstIndex(of: text.lowercased()).map { $0 + 1 }
    }

    private static func century(_ short: Int, now: Date) -> Int {
        // The current year to within a day, which is all the 50-year rule needs.
        let years = (now.timeIntervalSince1970 / 31_556_952).rounded(.down)
        let thisYear = years.isFinite && abs(years) < 1_000_000 ? 1970 + Int(years) : 2000
        let candidate = thisYear - thisYear % 100 + short
        return candidate > thisYear + 50 ? candidate - 100 : candidate
    }

    private static func time(_ text: String) -> (Int, Int, Int)? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3, let hour = number(fields[0], digits: 2),
            let minute = number(fields[1], digits: 2),
            let second = number(fields[2], digits: 2), hour < 24, minute < 60, second <= 60
        else { return nil }
        return (hour, minute, second)
    }

    /// Days from 1970-01-01 to a valid Gregorian date (Howard Hinnant's days-from-civil), or `nil`.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int? {
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...lengths[month - 1]).contains(day) else { return nil }
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
