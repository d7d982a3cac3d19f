import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One row of ``CacheDecisionTableTests``: the RFC section it follows, what it says, what the cache does
/// (worked out when the row runs), and what it should do.
struct DecisionRow: Sendable, CustomTestStringConvertible {
    let section: String
    let says: String
    let outcome: @Sendable () -> String
    let expected: String

    var testDescription: String { "\(section): \(says)" }

    /// When every row's stored answer arrived.
    static let arrival = Date(timeIntervalSince1970: 1_800_000_000)
    static let url = URL(string: "https://api.example.com/films")!

    /// A lookup: `stored` (header fields; `nil` for nothing stored) arrived `age` seconds ago, with the
    /// `Vary` values `variants`; the request carries `request` and `method` under `policy`; an unsafe
    /// method invalidated the URL `invalidatedAgo` seconds ago, if given.
    static func lookup(
        _ section: String, _ says: String, method: String = "GET", stored: [String: String]?,
        variants: [String: String] = [:], request: [String: String] = [:], policy: CachePolicy = .useProtocol,
        age: Double, invalidatedAgo: Double? = nil, _ expected: String
    ) -> DecisionRow {
        DecisionRow(
            section: section, says: says,
            outcome: {
                var sent = URLRequest(url: url)
                sent.httpMethod = method
                for (name, value) in request { sent.setValue(value, forHTTPHeaderField: name) }
                let now = arrival.addingTimeInterval(age)
                let entry = stored.map {
                    CachedHTTPResponse(
                        statusCode: 200, headers: $0, body: Data(), requestDate: arrival,
                        responseDate: arrival,
                        variants: variants)
                }
                let decision = CacheDecision.decide(
                    CacheRequest(sent), sent: sent, stored: entry,
                    invalidatedAt: invalidatedAgo.map { now.addingTimeInterval(-$0) }, policy: policy,
                    now: now,
                    heuristicFraction: 0.1)
                switch decision {
                case .bypass: return "bypass"
                case .serve(_, let isFresh): return isFresh ? "serve fresh" : "serve stale"
                case .serveAndRefresh: return "serve and refresh"
                case .ask(let validators): return (["ask"] + validators.keys.sorted()).joined(separator: " ")
                case .fail: return "fail"
                }
            }, expected: expected)
    }

    /// A `304` with `answer` to the validation of an answer stored with `stored`; `show` names a field
    /// of the merged answer to print.
    static func notModified(
        _ section: String, _ says: String, stored: [String: String], answer: [String: String],
        show: String? = nil, _ expected: String
    ) -> DecisionRow {
        DecisionRow(
            section: section, says: says,
            outcome: {
                let entry = CachedHTTPResponse(
                    statusCode: 200, headers: stored, body: Data(), requestDate: arrival,
                    responseDate: arrival)
                guard
                    let http = HTTPURLResponse(
                        url: url, statusCode: 304, httpVersion: "HTTP/1.1", headerFields: answer)
                else { return "no response" }
                switch CacheDecision.afterNotModified(
                    http, validated: entry, requestDate: arrival, responseDate: arrival)
                {
                case .untrusted: return "untrusted"
                case .confirmed(let updated, let keep):
                    let shown = show.map { ", \($0): \(updated.header($0) ?? "none")" } ?? ""
                    return "confirmed, " + (keep ? "kept" : "used once") + shown
                }
            }, expected: expected)
    }

    /// A whole answer with `status` and `headers`, from `url` (the request's own by default).
    static func answer(
        _ section: String, _ says: String, status: Int, headers: [String: String],
        url answered: String? = nil,
        _ expected: String
    ) -> DecisionRow {
        DecisionRow(
            section: section, says: says,
            outcome: {
                let request = URLRequest(url: url)
                guard
                    let http = HTTPURLResponse(
                        url: answered.flatMap(URL.init(string:)) ?? url, statusCode: status,
                        httpVersion: "HTTP/1.1",
                        headerFields: headers)
                else { return "no response" }
                switch CacheDecision.afterAnswer(
                    http, body: Data("{}".utf8), request: request, sent: request, requestDate: arrival,
                    responseDate: arrival)
                {
                case .store: return "store"
                case .removeStored: return "remove stored"
                case .leave: return "leave"
                }
            }, expected: expected)
    }

    /// A request with `method` to the row URL answered `status`, with `location` and `contentLocation`;
    /// the outcome is the paths of the URLs invalidated.
    static func invalidation(
        _ section: String, _ says: String, method: String, status: Int, location: String? = nil,
        contentLocation: String? = nil, _ expected: String
    ) -> DecisionRow {
        DecisionRow(
            section: section, says: says,
            outcome: {
                CacheDecision.invalidated(
                    method: method, url: url, status: status, location: location,
                    contentLocation: contentLocation
                ).map(\.path).joined(separator: " ")
            }, expected: expected)
    }
}

/// The HTTP date `offset` seconds after ``DecisionRow/arrival``.
func date(_ offset: Double) -> String {
    HTTPDates.format(DecisionRow.arrival.addingTimeInterval(offset))
}
