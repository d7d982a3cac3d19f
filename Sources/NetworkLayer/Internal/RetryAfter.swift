import Foundation

/// Parses a `Retry-After` value as RFC 9110 (section 10.2.3) defines it: `delay-seconds`, one or more
/// ASCII digits, or an `HTTP-date` in any of its three forms. Anything else is not a `Retry-After`.
enum RetryAfter {
    /// The wait `value` asks for at `now`: whole seconds (saturating, never trapping, however many
    /// digits), or the time until the date (zero for a date in the past); `nil` when `value` is neither.
    static func delay(from value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            // Digits only, so the only way Int64 parsing fails is overflow: a wait longer than any cap.
            return .seconds(Int64(trimmed) ?? .max)
        }
        guard let date = httpDate(from: trimmed) else { return nil }
        return .seconds(seconds: max(date.timeIntervalSince(now), 0))
    }

    /// The three date formats RFC 9110 accepts, preferred one first.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // obsolete RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        "EEE MMM d HH:mm:ss yyyy",  // obsolete asctime: Sun Nov  6 08:49:37 1994
    ]

    /// `text` read as an HTTP date, or `nil`.
    static func httpDate(from text: String) -> Date? {
        // asctime pads the day with a space ("Nov  6"); collapse runs of spaces so one format reads both.
        let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }
}

extension Duration {
    /// `seconds` as a duration, for any `Double`: NaN and negative values are zero, and values too large
    /// for a `Duration` (infinity included) saturate, where `Duration.seconds(_:)` would trap.
    static func seconds(seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        // About 292 billion years: within Int64 seconds, and past any wait a caller could mean.
        guard seconds < 9.2e18 else { return .seconds(Int64.max) }
        return .seconds(seconds)
    }
}
