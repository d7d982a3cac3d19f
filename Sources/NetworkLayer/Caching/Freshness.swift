import Foundation

/// How old a stored answer is and how long it stays fresh, computed as RFC 9111 section 4.2 says, in
/// seconds, from values a server may have made hostile: every header that is missing, negative, not a
/// number or not a date falls back to what the RFC allows, and every result lies in `0...2^31`.
struct Freshness: Sendable {
    /// The statuses a cache may give a heuristic lifetime (RFC 9110 section 15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// The longest lifetime a heuristic gives: one day.
    static let longestHeuristicLifetime: Double = 86_400
    private static let largest = Double(CacheControl.largestDelta)

    /// The answer's current age (`current_age`).
    let age: Double
    /// Its freshness lifetime (`freshness_lifetime`).
    let lifetime: Double
    /// Its `Cache-Control`.
    let control: CacheControl

    /// The freshness of `entry` at `now`, with heuristic lifetimes `fraction` of the time since
    /// `Last-Modified`, and `assumed` seconds (when given) for an answer that says nothing of its
    /// freshness (no `max-age`, `Expires`, `Last-Modified` or `no-cache`). `fields` are its
    /// ``FreshnessFields``, read again when not given.
    init(
        of entry: CachedHTTPResponse, fields: FreshnessFields? = nil, at now: Date,
        heuristicFraction fraction: Double, assumed: Double? = nil
    ) {
        let fields = fields ?? FreshnessFields(entry)
        control = fields.control
        let responseTime = entry.responseDate.timeIntervalSince1970
        let requestTime = min(entry.requestDate.timeIntervalSince1970, responseTime)
        let dateValue = fields.date ?? responseTime
        let ageValue = Double(fields.age ?? 0)
        let apparentAge = Self.clamp(responseTime - dateValue)
        let correctedAge = Self.clamp(ageValue + (responseTime - requestTime))
        let residentTime = Self.clamp(now.timeIntervalSince1970 - responseTime)
        age = Self.clamp(max(apparentAge, correctedAge) + residentTime)

        if let maxAge = control.maxAge {
            lifetime = Double(maxAge)
        } else if fields.hasExpires {
            // An Expires that is not a date ("0", say) means already expired (RFC 9111 section 5.3).
            lifetime = Self.clamp((fields.expires ?? dateValue) - dateValue)
        } else if Self.heuristicallyCacheable.contains(entry.statusCode), let modified = fields.lastModified {
            let sinceModified = Self.clamp(dateValue - modified)
            lifetime = min(sinceModified * fraction, Self.longestHeuristicLifetime)
        } else if let assumed, !control.noCache, !fields.hasLastModified {
            lifetime = Self.clamp(assumed)
        } else {
            lifetime = 0
        }
    }

    /// Whether the answer may be used without asking the server.
    var isFresh: Bool { !control.noCache && age < lifetime }

    /// How long past its lifetime the answer is (0 while fresh).
    var staleness: Double { max(age - lifetime, 0) }

    /// Whether the response forbids using it stale, even when the server cannot be reached
    /// (`must-revalidate`, `no-cache`: RFC 9111 sections 4.2.4 and 5.2.2.2).
    var forbidsStaleUse: Bool { control.mustRevalidate || control.noCache }

    /// Whether it may be answered stale while it is revalidated in the background.
    var allowsStaleWhileRevalidating: Bool {
        guard !forbidsStaleUse, let window = control.staleWhileRevalidate else { return false }
        return staleness <= Double(window)
    }

    /// Whether it may be answered after an error, with the app accepting `accepted` seconds of
    /// staleness on top of the response's own `stale-if-error`.
    func allowsStaleAfterError(accepting accepted: Double?) -> Bool {
        guard !forbidsStaleUse else { return false }
        let allowed = max(control.staleIfError.map(Double.init) ?? -1, accepted ?? -1)
        return allowed >= 0 && staleness <= allowed
    }

    /// `seconds` within `0...2^31`; NaN is 0.
    private static func clamp(_ seconds: Double) -> Double {
        guard seconds > 0 else { return 0 }
        return min(seconds, largest)
    }
}
