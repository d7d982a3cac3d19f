import Foundation

/// The header fields of a stored answer that its freshness is computed from (RFC 9111 section 4.2),
/// read once per stored version: `Cache-Control`, `Date`, `Age`, `Expires` and `Last-Modified`.
///
/// Every date is read as of when the answer arrived (its `responseDate`): that decides the century of an
/// obsolete two-digit year, which RFC 9110 section 5.6.7 reads as the most recent past year with those
/// digits when it "appears to be more than 50 years in the future"; this module takes "future" to mean
/// after the answer arrived. So the fields are the same whenever they are used, and the cache keeps them
/// with the response it made of the same version (``StoredReading``) instead of reading the headers on
/// every hit.
struct FreshnessFields: Sendable {
    /// Its `Cache-Control`.
    let control: CacheControl
    /// `Date`, in seconds since 1970, when it is a date.
    let date: Double?
    /// `Age`, when it is delta-seconds.
    let age: Int64?
    /// Whether it has an `Expires` field.
    let hasExpires: Bool
    /// `Expires`, in seconds since 1970, when it is a date (`nil` when it is absent or not one).
    let expires: Double?
    /// Whether it has a `Last-Modified` field.
    let hasLastModified: Bool
    /// `Last-Modified`, in seconds since 1970, when it is a date (`nil` when it is absent or not one).
    let lastModified: Double?

    /// The fields of `entry`.
    init(_ entry: CachedHTTPResponse) {
        let received = entry.responseDate
        func date(_ name: String) -> (present: Bool, seconds: Double?) {
            guard let field = entry.header(name) else { return (false, nil) }
            return (true, HTTPDate.parse(field, now: received)?.timeIntervalSince1970)
        }
        control = CacheControl(entry.header("cache-control"))
        self.date = date("date").seconds
        age = entry.header("age").flatMap { CacheControl.delta(Substring($0)) }
        (hasExpires, expires) = date("expires")
        (hasLastModified, lastModified) = date("last-modified")
    }
}
