import Foundation
import TestSupport

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An origin server the test scripts answer by answer, behind a ``StubSession``: each request is kept,
/// and answered by the next queued answer (the last one again once the queue runs out). A cache test
/// reads what was asked and what the store kept, without a network.
final class ScriptedOrigin: Sendable {
    /// One answer: a status, its header fields, a body, and optionally the URL the session says it came
    /// from (a redirect followed below the cache), or an error to throw instead.
    struct Answer: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        var body = #"{"id":"a","version":1,"lang":""}"#
        var url: URL? = nil
        var error: URLError? = nil
        /// Held here until the test opens it.
        var gate: AsyncGate? = nil
    }

    let url = URL(string: "https://api.example.com/films/1")!
    private let queue = Locked<[Answer]>([])
    private let asked = Locked<[URLRequest]>([])
    let date = ManualClock(Date())
    let store: HTTPCacheSecretsTests.KeepingStore
    let cache: HTTPCache

    init(partition: (@Sendable (URLRequest) -> String?)? = nil) {
        let store = HTTPCacheSecretsTests.KeepingStore()
        let date = date
        self.store = store
        cache = HTTPCache(store: store, partition: partition, now: { date.now })
    }

    /// Queues answers, in order.
    func answer(_ answers: Answer...) { queue.withLock { $0 += answers } }

    /// The requests the origin received, in order.
    var requests: [URLRequest] { asked.withLock { $0 } }

    /// A provider with this origin's cache, sending to this origin.
    func provider(middlewares: [any NetworkMiddleware] = []) -> NetworkProvider {
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = cache
        let session = StubSession { [self] request in
            asked.withLock { $0.append(request) }
            let answer = queue.withLock { queue in queue.count > 1 ? queue.removeFirst() : queue.first }
            guard let answer else { throw URLError(.badServerResponse) }
            if let gate = answer.gate { await gate.enter() }
            if let error = answer.error { throw error }
            let http = HTTPURLResponse(
                url: answer.url ?? request.url!, statusCode: answer.status, httpVersion: "HTTP/1.1",
                headerFields: answer.headers)!
            return (Data(answer.body.utf8), http)
        }
        return NetworkProvider(session: session, middlewares: middlewares, configuration: configuration)
    }

    /// This origin's film (or `path` on its host), sent with `method`, `policy` and request header
    /// fields `headers`.
    func film(
        _ method: HTTPMethod = .get, path: String = "/films/1", policy: CachePolicy = .useProtocol,
        headers: [String: String] = [:]
    ) -> Endpoint<Data> {
        var endpoint = Endpoint<Data>(
            baseURL: URL(string: "https://api.example.com\(path)")!, method: method, headers: headers)
        endpoint.cachePolicy = policy
        return endpoint
    }

    /// How many answers the store keeps, invalidation notes left out.
    var keptAnswers: Int { store.kept.withLock { $0.keys.filter { !$0.hasPrefix("invalidated ") }.count } }
}
