import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a hit keeps of a stored version (``StoredReading``: its ``FreshnessFields`` and the response made
/// of it) is used for that version only, and reads the same whenever it is used.
@Suite("HTTP cache: what a hit keeps of a stored answer")
struct HTTPCacheReadingTests {
    @Test func aNewVersionUnderTheSameKeyIsJudgedByItsOwnHeaders() async throws {
        // Given an answer fresh for a year, served once from the store (so the cache kept what it read)
        let url = try #require(URL(string: "https://api.example.com/movies/7"))
        let calls = Locked(0)
        let answer = try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Cache-Control": "max-age=31536000"]))
        let cache = HTTPCache()
        var configuration = NetworkProvider.Configuration()
        configuration.httpCache = cache
        let provider = NetworkProvider(
            session: StubSession { _ in
                calls.withLock { $0 += 1 }
                return (Data("v1".utf8), answer)
            }, configuration: configuration)
        let endpoint = Endpoint<Data>(url: url)
        _ = try await provider.send(endpoint)
        try #require(try await provider.response(for: endpoint).source.isFromCache)
        // When another version that must be revalidated is stored under the same key, and asked for
        let key = try #require(CacheKey(URLRequest(url: url))).value
        cache.store.store(
            CachedHTTPResponse(
                statusCode: 200, headers: ["Cache-Control": "no-cache"], body: Data("v2".utf8),
                requestDate: Date(), responseDate: Date().addingTimeInterval(1)),
            forKey: key)
        _ = try await provider.send(endpoint)
        // Then that request went to the network: the new version's no-cache counts
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func aTwoDigitYearIsReadAsOfWhenTheAnswerArrived() throws {
        // Given an answer received in 1971 whose Date is in the obsolete form with the year "30"
        let received = Date(timeIntervalSince1970: 31_536_000)
        let entry = CachedHTTPResponse(
            statusCode: 200, headers: ["Date": "Wednesday, 01-Jan-30 00:00:00 GMT"], body: Data(),
            requestDate: received, responseDate: received)
        // When its fields are read (today, more than 50 years later)
        let fields = FreshnessFields(entry)
        // Then the year is 1930, as of 1971: 2030 would be more than 50 years after it arrived
        #expect(fields.date == -1_262_304_000)
    }
}
