import Foundation

/// The module's `Duration` arithmetic and text, in one place: conversions that never trap, however large
/// or odd the value (NaN, infinity, past `Int64.max` seconds), and the forms errors and logs print.
extension Duration {
    /// The duration in milliseconds for a log line (`"12 ms"`).
    var formattedMilliseconds: String {
        // Clamped: `Int(_:)` traps on a value past `Int.max`, and a clock may jump that far.
        let milliseconds = min(max(timeInterval * 1000, -9e18), 9e18).rounded()
        return "\(Int(milliseconds)) ms"
    }

    /// The duration for an error's description: milliseconds under a second, else seconds to a tenth.
    var formattedSeconds: String {
        let seconds = max(timeInterval, 0)
        return seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.1f s", seconds)
    }

    /// The duration in seconds; never traps, even past `Int64.max` seconds (where `components` does).
    var timeInterval: TimeInterval {
        self / .seconds(1)
    }

    /// The whole seconds of this duration, toward zero, clamped to `Int64`; never traps.
    var wholeSeconds: Int64 {
        let seconds = timeInterval.rounded(.towardZero)
        return Int64(exactly: seconds) ?? (seconds > 0 ? .max : .min)
    }

    /// A century: the longest a NetworkLayer `Task.sleep` waits (a longer `Duration`, or
    /// `.seconds(Int64.max)`, which `Task.sleep` traps on, is this).
    static var longestSleep: Duration { .seconds(100 * 365 * 86_400) }

    /// `seconds` as a duration, for any `Double`: NaN and negative values are zero, and values too large
    /// for a `Duration` (infinity included) saturate, where `Duration.seconds(_:)` would trap.
    static func seconds(seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        // About 292 billion years: within Int64 seconds, and past any wait a caller could mean.
        guard seconds < 9.2e18 else { return .seconds(Int64.max) }
        return .seconds(seconds)
    }
}
