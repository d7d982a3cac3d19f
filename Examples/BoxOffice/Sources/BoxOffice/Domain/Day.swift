import Foundation

/// A calendar day, independent of time zones: what KOBIS means by `targetDt`.
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The year, such as 2026.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to 31.
    public let day: Int

    /// A day that exists in the Gregorian calendar.
    /// - Throws: ``DayError/impossible(_:)`` for a date such as 2026-02-30.
    public init(year: Int, month: Int, day: Int) throws(DayError) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else {
            throw .impossible(String(format: "%04d-%02d-%02d", year, month, day))
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (the command line's and KOBIS's daily `openDt`).
    /// - Throws: ``DayError`` when the text is not in that form or names an impossible date.
    public init(dashed text: String) throws(DayError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        // Digits only: `Int` alone would take `+202` for a year.
        guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy(Self.isDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw .malformed(text, expected: "YYYY-MM-DD") }
        try self.init(year: year, month: month, day: day)
    }

    /// Parses `yyyyMMdd` (KOBIS's `targetDt` and movie `openDt`).
    /// - Throws: ``DayError`` when the text is not in that form or names an impossible date.
    public init(compact text: String) throws(DayError) {
        guard text.utf8.count == 8, text.utf8.allSatisfy(Self.isDigit), let number = Int(text) else {
            throw .malformed(text, expected: "yyyyMMdd")
        }
        try self.init(year: number / 10_000, month: number / 100 % 100, day: number % 100)
    }

    /// Whether `byte` is an ASCII digit.
    private static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    /// `YYYY-MM-DD`.
    public var dashed: String { String(format: "%04d-%02d-%02d", year, month, day) }
    /// `yyyyMMdd`, as KOBIS wants it.
    public var compact: String { String(format: "%04d%02d%02d", year, month, day) }
    /// `YYYY-MM-DD`.
    public var description: String { dashed }

    /// The day before.
    public var previous: Day { adding(days: -1) }
    /// The day after.
    public var next: Day { adding(days: 1) }

    /// The day `days` days later (earlier when negative).
    public func adding(days: Int) -> Day {
        Day(julianDay: julianDay + days)
    }

    /// The day it is at `date` in Korea (UTC+9, no daylight saving time).
    public static func inKorea(at date: Date) -> Day {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + 9 * 3600
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return Day(julianDay: days + 2_440_588)
    }

    /// Days are ordered by time.
    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Encodes as `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dashed)
    }

    /// Decodes from `YYYY-MM-DD`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(dashed: text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, through the Julian day number)

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private var julianDay: Int {
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        return day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32_045
    }

    private init(julianDay: Int) {
        let a = julianDay + 32_044
        let b = (4 * a + 3) / 146_097
        let c = a - 146_097 * b / 4
        let d = (4 * c + 3) / 1461
        let e = c - 1461 * d / 4
        let m = (5 * e + 2) / 153
        day = e - (153 * m + 2) / 5 + 1
        month = m + 3 - 12 * (m / 10)
        year = 100 * b + d - 4800 + m / 10
    }
}

/// A date that could not be read.
public enum DayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not in the expected form.
    case malformed(String, expected: String)
    /// The date does not exist, such as 2026-02-30.
    case impossible(String)

    /// What went wrong, in one line.
    public var description: String {
        switch self {
        case .malformed(let text, let expected): return "\"\(text)\" is not a date in the form \(expected)"
        case .impossible(let text): return "\(text) is not a real date"
        }
    }
}
