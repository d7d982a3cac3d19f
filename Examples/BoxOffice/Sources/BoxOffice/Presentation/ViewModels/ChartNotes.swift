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

    /// "<subject> came from the cache (saved T), not the network"; when the service failed, "<subject>
    /// came from the cache (saved T) because <the failure>", which names a refusal's code ("because
    /// KOBIS refused the request: KOBIS error 320010: …", a revoked key); `nil` when it came from the
    /// network.
    public static func origin(_ origin: DataOrigin, of subject: String) -> String? {
        switch origin {
        case .network:
            return nil
        case .cache(let savedAt):
            return "\(subject) came from the cache (saved \(timestamp(savedAt))), not the network"
        case .cacheAfterFailure(let savedAt, let failure):
            return "\(subject) came from the cache (saved \(timestamp(savedAt))) because \(failure)"
        }
    }

    /// "the details of N of M films came from the cache (saved T), not the network" (saved T1 to T2 when
    /// they were saved at different times); when the service failed for any of them, "… because <the
    /// failure>" instead (or "…; K of them because <the failure>" when only K did), naming it as
    /// ``origin(_:of:)`` does; `nil` when none did. A film without details counts in M.
    public static func detailsOrigin(_ details: [MovieDetails?]) -> String? {
        guard let (count, range) = cachedDetails(details) else { return nil }
        let head = "the details of \(count) of \(films(details.count)) came from the cache (saved \(range))"
        guard let failure = failure(of: details) else { return head + ", not the network" }
        let failed = details.filter { if case .cacheAfterFailure? = $0?.origin { true } else { false } }.count
        return failed == count
            ? head + " because \(failure)" : head + "; \(failed) of them because \(failure)"
    }

    /// The failure the service answered when the cache stood in for it, for any of `details`: the first,
    /// and how many others there were.
    public static func failure(of details: [MovieDetails?]) -> String? {
        let failures = Set(
            details.compactMap { details -> String? in
                guard case .cacheAfterFailure(_, let failure)? = details?.origin else { return nil }
                return failure
            }
        ).sorted()
        guard let first = failures.first else { return nil }
        let others = failures.count - 1
        return others == 0 ? first : first + " (and \(others) other failure\(others == 1 ? "" : "s"))"
    }

    /// How many of `details` came from the cache, and when they were saved (`T`, or `T1 to T2`);
    /// `nil` when none did.
    public static func cachedDetails(_ details: [MovieDetails?]) -> (count: Int, saved: String)? {
        let dates = details.compactMap { $0?.origin.savedAt }
        guard let first = dates.min(), let last = dates.max() else { return nil }
        // Two saves in one minute read as one time, not "T to T".
        let (from, to) = (timestamp(first), timestamp(last))
        let range = from == to ? from : "\(from) to \(to)"
        return (dates.count, range)
    }

    /// "1 film", "3 films".
    /// - Parameter count: How many films.
    public static func films(_ count: Int) -> String {
        count == 1 ? "1 film" : "\(count) films"
    }

    /// `date` as `2026-11-25 09:30 UTC`.
    public static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
