import Foundation

/// What a person should be told about a chart beside its rows.
public enum ChartNotes {
    /// "the chart for D had N rows beyond its top 10; they are left out", or `nil` when it had none.
    public static func omitted(_ chart: DailyBoxOffice) -> String? {
        guard chart.omittedEntries > 0 else { return nil }
        let rows = chart.omittedEntries == 1 ? "1 row" : "\(chart.omittedEntries) rows"
        return "the chart for \(chart.day) had \(rows) beyond its top \(DailyBoxOffice.maximumEntries); "
            + "they are left out"
    }

    /// "<subject> came from the cache (saved T), not the network", or `nil` when it came from the
    /// network.
    public static func origin(_ origin: DataOrigin, of subject: String) -> String? {
        guard case .cache(let savedAt) = origin else { return nil }
        return "\(subject) came from the cache (saved \(timestamp(savedAt))), not the network"
    }

    /// `date` as `2026-11-25 09:30 UTC`.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
