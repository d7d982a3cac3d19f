import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a download's next request asks for: the first window, the next one, or the missing bytes of a
/// resume, with the validator that keeps them of one version.
extension ProviderWrittenFile {
    /// `request`, asking for the missing bytes when the download can resume, and for no more than
    /// `window` bytes of them when given: the first window of a download not begun, the next window
    /// of one the server answers in ranges. A resume of a body whose total is unknown asks for all the
    /// rest, and so does every request once the server refused a window.
    func request(resuming request: URLRequest, window: Int64? = nil) -> URLRequest {
        let asked = state.withLock { state -> (range: String, validator: String?)? in
            let window = state.windowsRefused ? nil : window.flatMap { $0 > 0 ? $0 : nil }
            let start: Int64
            let validator: String?
            if let point = state.resumePoint {
                (start, validator) = (point.offset, point.validator)
            } else if state.received == 0, window != nil {
                (start, validator) = (0, nil)
            } else {
                (state.askedEnd, state.askedFrom) = (nil, nil)
                return nil
            }
            let end = window.flatMap { window -> Int64? in
                guard start == 0 || state.expectedTotal != nil else { return nil }
                let (end, overflow) = start.addingReportingOverflow(window)
                return overflow ? nil : end
            }
            (state.askedEnd, state.askedFrom) = (end, start)
            return ("bytes=\(start)-" + (end.map { String($0 - 1) } ?? ""), validator)
        }
        guard let asked else { return request }
        var request = request
        request.setValue(asked.range, forHTTPHeaderField: "Range")
        if let validator = asked.validator { request.setValue(validator, forHTTPHeaderField: "If-Range") }
        return request
    }

    /// Whether the last request asked for the first window (a `416` to it means an empty body, or a
    /// server that will not serve ranges: ``refuseWindows()``).
    var askedForFirstWindow: Bool {
        state.withLock { $0.askedEnd != nil && $0.received == 0 }
    }

    /// Asks for the whole rest from now on.
    func refuseWindows() {
        state.withLock { $0.windowsRefused = true }
    }
}
