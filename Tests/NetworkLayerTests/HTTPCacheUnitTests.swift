import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's parts as values: Cache-Control, freshness arithmetic, the stored format, the memory
/// store, SHA-256.
@Suite("HTTP cache: parts")
struct HTTPCacheUnitTests {
    @Test func cacheControlReadsDirectivesInAnyCaseWithQuotedValues() {
        // Given / When
        let control = CacheControl(#"Max-Age="60", no-cache="Set-Cookie", MUST-REVALIDATE, stale-if-error=5"#)
        // Then
        #expect(control.maxAge == 60)
        #expect(control.noCache && control.mustRevalidate)
        #expect(control.staleIfError == 5)
    }

    @Test func aMaxAgeThatIsNotANumberMakesTheAnswerStale() {
        #expect(CacheControl("max-age=soon").maxAge == 0)
        #expect(CacheControl("max-age=-1").maxAge == 0)
        #expect(CacheControl("max-age").maxAge == 0)
    }

    @Test func theFirstOfARepeatedDirectiveCounts() {
        #expect(CacheControl("max-age=10, max-age=1000").maxAge == 10)
    }

    @Test func deltaSecondsSaturateAtTwoToTheThirtyFirst() {
        #expect(CacheControl("max-age=99999999999999999999999999").maxAge == 2_147_483_648)
    }

    @Test func aHugeFieldIsReadOnlyUpToItsLimits() {
        // Given a field of 100,000 directives, the real one last
        let field = String(repeating: "x,", count: 100_000) + "max-age=5"
        // When / Then: parsing stops at the limits
        #expect(CacheControl(field).maxAge == nil)
        #expect(CacheControl.directives(in: field).count == CacheControl.maximumDirectives)
    }

    @Test func maxStaleWithoutAValueAcceptsAnyStaleness() {
        #expect(CacheControl("max-stale").maxStale == CacheControl.largestDelta)
    }

    @Test func theAgeOfAnAnswerFollowsRFC9111() throws {
        // Given an answer sent 10 s before it arrived, with Age 30, that took 2 s, held 100 s since
        let sent = Date(timeIntervalSince1970: 1_000_000)
        let date = try #require(HTTPDate.parse("Mon, 12 Jan 1970 13:46:30 GMT"))
        let entry = CachedHTTPResponse(
            statusCode: 200,
            headers: ["Date": "Mon, 12 Jan 1970 13:46:30 GMT", "Age": "30", "Cache-Control": "max-age=200"],
            body: Data(), requestDate: sent, responseDate: sent.addingTimeInterval(2))
        // When
        let freshness = Freshness(of: entry, at: sent.addingTimeInterval(102), heuristicFraction: 0.1)
        // Then corrected age: max(apparent, 30 + 2) + 100 resident
        let apparent = max(sent.addingTimeInterval(2).timeIntervalSince(date), 0)
        #expect(freshness.age == max(apparent, 32) + 100)
        #expect(freshness.lifetime == 200)
    }

    @Test func theHeuristicLifetimeIsCappedAtADay() throws {
        // Given an answer last modified ten years ago
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let entry = CachedHTTPResponse(
            statusCode: 200, headers: ["Last-Modified": "Thu, 01 Jan 2015 00:00:00 GMT"], body: Data(),
            requestDate: now, responseDate: now)
        // When / Then
        #expect(Freshness(of: entry, at: now, heuristicFraction: 0.1).lifetime == 86_400)
    }

    @Test func aStoredAnswerSurvivesItsBytes() throws {
        // Given an answer
        let entry = CachedHTTPResponse(
            statusCode: 200, headers: ["ETag": "\"a\"", "Content-Type": "image/jpeg"],
            body: Data([0, 1, 2, 255]),
            requestDate: Date(timeIntervalSince1970: 1), responseDate: Date(timeIntervalSince1970: 2),
            variants: ["accept-language": "ko"])
        // When / Then
        #expect(try CachedHTTPResponse(serialized: entry.serialized()) == entry)
    }

    @Test(arguments: [
        Data(), Data("NLHC1\n".utf8), Data("NLHC1\n\u{7f}\u{ff}\u{ff}\u{ff}{}".utf8),
        Data("NLHC1\n\0\0\0\u{4}{}".utf8),
        Data("NLHC2\n\0\0\0\u{2}{}".utf8), Data("NLHC1\n\0\0\0\u{2}[]".utf8),
    ])
    func bytesThatAreNotAStoredAnswerFailWithATypedError(_ bytes: Data) {
        #expect(throws: CachedHTTPResponse.FormatError.self) { try CachedHTTPResponse(serialized: bytes) }
    }

    @Test func theMemoryStoreEvictsTheLeastRecentlyUsedFirst() {
        // Given a store with room for two answers of 100 bytes
        let store = MemoryHTTPCacheStore(byteLimit: 250)
        let answer = CachedHTTPResponse(
            statusCode: 200, headers: [:], body: Data(count: 100), requestDate: Date(), responseDate: Date())
        store.store(answer, forKey: "a")
        store.store(answer, forKey: "b")
        // When "a" is read, then a third is stored
        _ = store.response(forKey: "a")
        store.store(answer, forKey: "c")
        // Then "b" was evicted
        #expect(store.response(forKey: "a") != nil)
        #expect(store.response(forKey: "b") == nil)
        #expect(store.response(forKey: "c") != nil)
        #expect(store.byteCount <= 250)
    }

    @Test func theMemoryStoreKeepsWhatAPlainListOfUsesWould() {
        // Given a store of 55 bytes, and beside it a list of (key, cost) in use order, oldest first
        let store = MemoryHTTPCacheStore(byteLimit: 55)
        var model: [(key: String, cost: Int)] = []
        var random = SeededGenerator(seed: 0x5EED)
        var mismatches: [String] = []
        // When 5,000 stores (of 1 to 60 bytes), reads and removes of eight keys run on both
        for step in 0..<5_000 {
            let key = String(random.next() % 8)
            switch random.next() % 3 {
            case 0:
                let body = Int(random.next() % 60) + 1
                store.store(
                    CachedHTTPResponse(
                        statusCode: 200, headers: [:], body: Data(count: body), requestDate: Date(),
                        responseDate: Date()),
                    forKey: key)
                let cost = body + 1
                guard cost <= 55 else { break }
                model.removeAll { $0.key == key }
                model.append((key, cost))
                while model.map(\.cost).reduce(0, +) > 55 { model.removeFirst() }
            case 1:
                let found = store.response(forKey: key) != nil
                if found != model.contains(where: { $0.key == key }) {
                    mismatches.append("read \(key) at \(step)")
                }
                if let index = model.firstIndex(where: { $0.key == key }) {
                    model.append(model.remove(at: index))
                }
            default:
                store.removeResponse(forKey: key)
                model.removeAll { $0.key == key }
            }
        }
        // Then they agreed on every read, and hold the same answers and bytes now
        #expect(mismatches.isEmpty)
        #expect(store.count == model.count)
        #expect(store.byteCount == model.map(\.cost).reduce(0, +))
    }

    @Test func oneAnswerReadManyTimesIsStillOneAnswer() {
        // Given one answer stored
        let store = MemoryHTTPCacheStore()
        store.store(
            CachedHTTPResponse(
                statusCode: 200, headers: [:], body: Data(), requestDate: Date(), responseDate: Date()),
            forKey: "a")
        // When it is read 10,000 times
        for _ in 0..<10_000 { _ = store.response(forKey: "a") }
        // Then it is still there, alone
        #expect(store.count == 1)
        #expect(store.response(forKey: "a") != nil)
    }

    @Test func sha256MatchesTheStandardsVectors() {
        #expect(SHA256.hex("abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("".utf8) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func theKeyOfARequestWithCredentialsHasAPartitionAndNoSecret() throws {
        // Given a request with a bearer token and a ?key=
        var request = URLRequest(
            url: try #require(URL(string: "https://api.example.com/x?key=SECRETKEY&page=2")))
        request.setValue("Bearer SECRETTOKEN", forHTTPHeaderField: "Authorization")
        // When
        let key = try #require(CacheKey(request)).value
        // Then
        #expect(!key.contains("SECRET"))
        #expect(
            key.hasSuffix(
                " "
                    + (try #require(
                        CacheKey(URLRequest(url: URL(string: "https://api.example.com/x?page=2")!))
                    ).address)))
        #expect(!key.hasPrefix("public"))
        let plain = try #require(URL(string: "https://api.example.com/x"))
        #expect(CacheKey(URLRequest(url: plain))?.value.hasPrefix("public ") == true)
    }
}

/// `isOffline` and `RetryPolicy`'s predicate.
@Suite("Offline errors and what is retried")
struct OfflineAndRetryTests {
    @Test(arguments: [URLError.Code.notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff])
    func theseCodesMeanOffline(_ code: URLError.Code) {
        #expect(NetworkError.transport(URLError(code)).isOffline)
    }

    @Test func aRefusedConnectionOrATimeoutIsNotOffline() {
        #expect(!NetworkError.transport(URLError(.cannotConnectToHost)).isOffline)
        #expect(!NetworkError.transport(URLError(.timedOut)).isOffline)
        #expect(!NetworkError.timedOut(.seconds(1)).isOffline)
    }

    @Test func onLinuxAHostThatDoesNotResolveCountsAsOffline() {
        #expect(NetworkError.transport(URLError(.cannotFindHost)).isOffline == runsOnFoundationNetworking)
    }

    @Test func aRetryPolicysPredicateDecidesWhatIsRetried() async throws {
        // Given a policy that gives up at once offline, and a session that is offline
        let waits = Recorder<Duration>()
        let retry = RetryMiddleware(
            policy: RetryPolicy(isRetryable: { $0.isTransient && !$0.isOffline }), sleep: { waits.append($0) }
        )
        let (session, requests) = recordingStub(.failing(URLError(.notConnectedToInternet)))
        let provider = NetworkProvider(session: session, middlewares: [retry])
        // When
        _ = await error { try await provider.send(Endpoint<Data>(url: exampleURL)) }
        // Then one attempt, no wait
        #expect(requests.values.count == 1)
        #expect(waits.values.isEmpty)
    }

    @Test func aRetryPolicysPredicateSeesUnacceptableStatuses() async throws {
        // Given a policy that retries 404s, and a server that answers 404
        let waits = Recorder<Duration>()
        let retry = RetryMiddleware(
            policy: RetryPolicy(
                maxAttempts: 2,
                isRetryable: { error in
                    if case .unacceptableStatus(let failure) = error { return failure.statusCode == 404 }
                    return false
                }), sleep: { waits.append($0) })
        let (session, requests) = recordingStub(.status(404))
        let provider = NetworkProvider(session: session, middlewares: [retry])
        // When
        _ = await error { try await provider.send(Endpoint<Data>(url: exampleURL)) }
        // Then it was tried twice
        #expect(requests.values.count == 2)
    }
}
