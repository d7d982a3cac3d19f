import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("NetworkProvider: responses and errors")
struct NetworkProviderTests {
    let movie = Endpoint<Movie>(baseURL: exampleURL, path: "movie")

    @Test func aJSONResponseIsDecoded() async throws {
        // Given
        let provider = NetworkProvider(session: .json(#"{"title":"Wonka","year":2023}"#))
        // When
        let value = try await provider.send(movie)
        // Then
        #expect(value == Movie(title: "Wonka", year: 2023))
    }

    @Test func theRawBodyAndHTTPResponseComeWithTheValueWhenAsked() async throws {
        // Given
        let provider = NetworkProvider(session: .json(#"{"title":"Wonka","year":2023}"#, status: 200))
        // When
        let response = try await provider.response(for: movie)
        // Then
        #expect(response.statusCode == 200)
        #expect(String(data: response.data, encoding: .utf8) == #"{"title":"Wonka","year":2023}"#)
        #expect(
            response.httpResponse.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json")
                == true)
    }

    @Test(arguments: [204, 200])
    func anEmptyBodyIsFineForAnEmptyResponseEndpoint(status: Int) async throws {
        // Given
        let provider = NetworkProvider(session: .status(status))
        let endpoint = Endpoint<EmptyResponse>(baseURL: exampleURL, path: "logout", method: .post)
        // When
        let value = try await provider.send(endpoint)
        // Then
        #expect(value == EmptyResponse())
    }

    @Test func anUnacceptableStatusCarriesTheCodeHeadersAndABodyThatDecodes() async throws {
        // Given a Kakao-style error body with HTTP 400
        struct KakaoError: Decodable {
            let errorType: String
            let message: String
        }
        let provider = NetworkProvider(
            session: .json(
                #"{"errorType":"MissingParameter","message":"query parameter required"}"#, status: 400))
        // When
        let thrown = await error { try await provider.send(movie) }
        // Then
        let failure = try #require(
            (thrown as? NetworkError)?.statusFailure,
            "expected an unacceptable status, got \(String(describing: thrown))")
        #expect(failure.statusCode == 400)
        #expect(failure.decodeBody(as: KakaoError.self)?.errorType == "MissingParameter")
        #expect(thrown.map { "\($0)" }?.contains("HTTP 400 from https://api.example.com/v1/movie") == true)
    }

    @Test func aDecodingFailureNamesTheTypeAndTheCodingPath() async throws {
        // Given a KOBIS-shaped body where the fourth row's audiCnt is a number, not a string
        struct Row: Decodable, Sendable { let audiCnt: String }
        struct Result: Decodable, Sendable { let dailyBoxOfficeList: [Row] }
        struct Daily: Decodable, Sendable { let boxOfficeResult: Result }
        let rows = #"{"audiCnt":"1"},{"audiCnt":"2"},{"audiCnt":"3"},{"audiCnt":4}"#
        let provider = NetworkProvider(
            session: .json(#"{"boxOfficeResult":{"dailyBoxOfficeList":[\#(rows)]}}"#))
        // When
        let thrown = await error {
            try await provider.send(Endpoint<Daily>(baseURL: exampleURL, path: "daily"))
        }
        // Then
        let failure = try #require(
            (thrown as? NetworkError)?.decodingFailure,
            "expected a decoding failure, got \(String(describing: thrown))")
        #expect(failure.type == "Daily")
        #expect(failure.codingPath == "boxOfficeResult.dailyBoxOfficeList[3].audiCnt")
        #expect(failure.bodyExcerpt.hasPrefix(#"{"boxOfficeResult""#))
        #expect(
            thrown.map { "\($0)" }?.contains(
                "Could not decode Daily at boxOfficeResult.dailyBoxOfficeList[3].audiCnt") == true)
    }

    @Test func aValidationHookTurnsAnErrorInsideA200BodyIntoAnAPIError() async throws {
        // Given a KOBIS fault sent with HTTP 200
        struct Fault: Error, CustomStringConvertible {
            let code: String
            var description: String { "KOBIS error \(code)" }
        }
        var endpoint = movie
        endpoint.validate = { data, _ in
            if String(decoding: data, as: UTF8.self).contains("faultInfo") { throw Fault(code: "320010") }
        }
        let provider = NetworkProvider(
            session: .json(#"{"faultInfo":{"message":"유효하지않은 키값입니다.","errorCode":"320010"}}"#))
        // When
        let thrown = await error { try await provider.send(endpoint) }
        // Then
        let underlying = try #require(
            (thrown as? NetworkError)?.validationError,
            "expected an API error, got \(String(describing: thrown))")
        #expect((underlying as? Fault)?.code == "320010")
        #expect(thrown.map { "\($0)" } == "KOBIS error 320010")
    }

    @Test func aTransportFailureKeepsItsURLError() async throws {
        // Given
        let provider = NetworkProvider(session: .failing(URLError(.notConnectedToInternet)))
        // When
        let thrown = await error { try await provider.send(movie) }
        // Then
        let urlError = try #require((thrown as? NetworkError)?.transportError, "expected a transport failure")
        #expect(urlError.code == .notConnectedToInternet)
    }

    @Test func aRawDataEndpointReturnsTheBodyAsIs() async throws {
        // Given
        let bytes = Data([0x89, 0x50, 0x4E, 0x47])
        let provider = NetworkProvider(session: .status(200, body: bytes))
        // When
        let value = try await provider.send(Endpoint<Data>(baseURL: exampleURL, path: "poster.png"))
        // Then
        #expect(value == bytes)
    }
}

@Suite("NetworkProvider: timeouts, cancellation and coalescing")
struct NetworkProviderTimingTests {
    @Test func theProviderEnforcesTheEndpointsTimeoutItself() async throws {
        // Given a session that never answers, and a 300 ms timeout on an injected clock
        let clock = TestClock()
        let provider = NetworkProvider(
            session: StubSession.json("{}").delayed(by: .seconds(3600)), configuration: .init(clock: clock))
        var endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "slow")
        endpoint.timeout = .milliseconds(300)
        let request = Task { try await provider.send(endpoint) }
        // When 300 ms pass
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        // Then
        let thrown = await error { try await request.value }
        let duration = try #require(
            (thrown as? NetworkError)?.timeout, "expected a timeout, got \(String(describing: thrown))")
        #expect(duration == .milliseconds(300))
        #expect(thrown.map { "\($0)" } == "The request timed out after 300 ms.")
    }

    @Test func cancellingTheCallingTaskSurfacesAsCancellationError() async {
        // Given a request in flight against a session that answers only after an hour
        let (session, received) = recordingStub(StubSession.json("{}").delayed(by: .seconds(3600)))
        let provider = NetworkProvider(session: session)
        let request = Task { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "slow")) }
        await waitWhile { received.values.isEmpty }
        // When
        request.cancel()
        // Then
        let thrown = await error { try await request.value }
        #expect(thrown is CancellationError)
    }

    @Test func urlSessionsCancelledErrorIsMappedToCancellationError() async {
        // Given a session that reports cancellation the way URLSession on Linux does
        let session = StubSession { _ in
            try? await Task.sleep(for: .seconds(3600))
            throw URLError(.cancelled)
        }
        let provider = NetworkProvider(session: session)
        let request = Task { try await provider.send(Endpoint<Movie>(baseURL: exampleURL, path: "slow")) }
        await Task.yield()
        // When
        request.cancel()
        // Then
        #expect(await error { try await request.value } is CancellationError)
    }

    @Test func identicalConcurrentGETsShareOneTransportCallWhenCoalescing() async throws {
        // Given a session held at a gate, counting calls
        let calls = Recorder<Int>()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let session = StubSession { request in
            calls.append(1)
            for await _ in gate { break }
            return (
                Data(#"{"title":"Wonka","year":2023}"#.utf8),
                try StubSession.makeResponse(for: request, status: 200)
            )
        }
        let provider = NetworkProvider(session: session, configuration: .init(coalescesIdenticalGETs: true))
        let endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "movie")
        // When ten identical requests are made before the first answers
        let titles = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 { group.addTask { try await provider.send(endpoint).title } }
            await waitWhile { provider.coalescedWaiters < 10 }
            open.yield()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then
        #expect(titles == Array(repeating: "Wonka", count: 10))
        #expect(calls.values.count == 1)
    }

    @Test func requestsAreNotCoalescedByDefault() async throws {
        // Given
        let (session, received) = recordingStub()
        let provider = NetworkProvider(session: session)
        let endpoint = Endpoint<Movie>(baseURL: exampleURL, path: "movie")
        // When
        async let first = provider.send(endpoint)
        async let second = provider.send(endpoint)
        _ = try await (first, second)
        // Then
        #expect(received.values.count == 2)
    }
}

@Suite("Deadline arithmetic")
struct DeadlineTests {
    @Test func deadlinesSaturateInsteadOfOverflowing() {
        #expect(DeadlineTimer.deadline(after: .milliseconds(300), from: 1_000) == 300_001_000)
        #expect(DeadlineTimer.deadline(after: .seconds(Int64.max), from: 1_000) == .max)
        #expect(DeadlineTimer.deadline(after: .seconds(60), from: .max - 10) == .max)
        #expect(DeadlineTimer.deadline(after: .seconds(-5), from: 1_000) == 1_000)
    }
}
