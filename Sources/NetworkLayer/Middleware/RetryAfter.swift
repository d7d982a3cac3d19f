import Foundation

/// Parses a `Retry-After` value as RFC 9110 (section 10.2.3) defines it: `delay-seconds`, one or more
/// ASCII digits, or an `HTTP-date` (``HTTPDate``). Anything else is not a `Retry-After`.
enum RetryAfter {
    /// The wait `value` asks for at `now`: whole seconds (saturating, never trapping, however many
    /// digits), or the time until the date (zero for a date in the past); `nil` when `value` is neither.
    static func delay(from value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy(isDigit) {
            // Digits only, so the only way Int64 parsing fails is overflow: a wait longer than any cap.
            return .seconds(Int64(trimmed) ?? .max)
        }
        guard let date = HTTPDate.parse(trimmed, now: now) else { return nil }
        return .seconds(seconds: max(date.timeIntervalSince(now), 0))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
