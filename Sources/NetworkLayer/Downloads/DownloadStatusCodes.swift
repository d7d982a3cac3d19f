import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The statuses a download accepts: its endpoint's, and `206 Partial Content` wherever `200` is, since a
/// download asks for ranges itself (windows, resumes).
struct DownloadStatusCodes: StatusCodeSet {
    let endpoint: any StatusCodeSet

    init(_ endpoint: any StatusCodeSet) {
        self.endpoint = endpoint
    }

    func contains(_ statusCode: Int) -> Bool {
        endpoint.contains(statusCode) || (statusCode == 206 && endpoint.contains(200))
    }
}
