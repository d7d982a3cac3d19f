/// Where a transport call writes what it measured of its attempt: when the head came, the bytes sent and
/// received, and whether it shared another caller's call. The provider hands one to every transport
/// call, beside the request, so no task-local carries it.
struct AttemptRecord: Sendable {
    let log: RequestMetricsLog
    let number: Int

    /// The response head arrived now.
    func responseStarted() {
        log.update(number) { $0.responseStart = .now }
    }

    /// The transfer received `bytes` of body in all.
    func received(_ bytes: Int64) {
        log.update(number) { $0.bytesReceived = bytes }
    }

    /// The transfer sent `bytes` of body in all.
    func sent(_ bytes: Int64) {
        log.update(number) { $0.bytesSent = bytes }
    }

    /// The attempt shared another caller's transport call.
    func coalesced() {
        log.update(number) { $0.isCoalesced = true }
    }
}
