import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every list the module judges a failure by, side by side, so "was this a network blip?" has one
/// place: retrying (``NetworkError/isTransient``), the device being offline (``NetworkError/isOffline``),
/// a server that cannot be reached at all (no retry once a stored answer was shown), a download worth
/// resuming, and the statuses a stale answer may stand in for. `FailureKindsTests` pins how the lists
/// relate.
enum FailureKinds {
    /// Transport failures one more attempt may mend.
    static let transient: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .dnsLookupFailed,
        .cannotFindHost,
    ]

    /// Transport failures that say the device is offline, on every platform.
    static let offline: Set<URLError.Code> = [
        .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff,
    ]

    /// What FoundationNetworking reports for a missing network (measured: `cannotFindHost`, -1003), which
    /// counts as offline there too.
    static let offlineOnFoundationNetworking: Set<URLError.Code> = [.cannotFindHost, .dnsLookupFailed]

    /// Transport failures that say the server cannot be reached at all (offline, a refused connection, a
    /// host not found), as opposed to a connection lost or a timeout that one more attempt often mends.
    static let unreachable: Set<URLError.Code> = offline.union([
        .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
    ])

    /// Transport failures that end a download for good: cancellation, a URL no request can use, a
    /// refused certificate. Every other one is a dropped or stalled transfer, worth resuming.
    static let endsDownload: Set<URLError.Code> = [
        .cancelled, .badURL, .unsupportedURL, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .secureConnectionFailed,
    ]

    /// Transport failures that refuse the bytes themselves (past the range asked for, not decodable or
    /// parsable): not a drop, so a file that holds every byte announced is not complete after one.
    static let refusesBody: Set<URLError.Code> = [
        .cannotParseResponse, .cannotDecodeContentData, .cannotDecodeRawData, .badServerResponse,
    ]

    /// Statuses one more attempt may mend: 408, 429 and 5xx other than 501.
    static func isTransient(status: Int) -> Bool {
        status == 408 || status == 429 || ((500...599).contains(status) && status != 501)
    }

    /// Statuses after which a stale answer may be given instead (RFC 5861 section 4).
    static let staleIfErrorStatuses: Set<Int> = [500, 502, 503, 504]
}
