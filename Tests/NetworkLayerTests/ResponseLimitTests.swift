import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every whole body is bounded: a hostile server's declared size, endless body or compressed bomb stops
/// at the limit with ``NetworkError/responseTooLarge(limit:)``, against a fixture server of their own on
/// 127.0.0.1. One at a time, and paced: .ci/check-memory.sh measures the floods at full speed, where
/// they cannot crowd the timed tests on a two-core machine (under ThreadSanitizer they did).
@Suite("Response size limits", .serialized)
struct ResponseLimitTests {
    let server: TestServer
    let group: EndpointGroup

    init() async throws {
        server = try await TestServer.hostile.value
        group = EndpointGroup(baseURL: server.baseURL)
    }

    func provider(limit: Int = 32 << 20) -> NetworkProvider {
        var configuration = NetworkProvider.Configuration()
        configuration.maximumResponseSize = limit
        return NetworkProvider(session: URLSession(configuration: .ephemeral), configuration: configuration)
    }

    func endpoint(_ path: String, _ query: [String: String] = [:]) -> Endpoint<Data> {
        group.get(path, query: query)
    }

    func closedFlag(_ id: String) async throws -> Int {
        struct Closed: Decodable { let closed: Int }
        return try await provider().send(group.get("closed", query: ["id": id], as: Closed.self)).closed
    }

    /// Waits up to 15 s for the server to see the client leave the /endless request with this id.
    func serverSeesClosed(_ id: String) async throws -> Bool {
        for _ in 0..<300 {
            if try await closedFlag(id) == 1 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedBeforeTheBodyIsRead() async throws {
        // Given a server announcing a 1 GiB body that sends only 100 bytes of it, and a provider
        // accepting 1 MiB: counting the bytes received never reaches the limit
        let provider = provider(limit: 1 << 20)
        // When
        let error = await error {
            try await provider.send(endpoint("declared", ["bytes": "\(1 << 30)", "sendBytes": "100"]))
        }
        // Then it fails on the declared length (without that check it would fail as a body cut short)
        guard case .responseTooLarge(let limit)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1 << 20)
    }

    @Test func anEndlessBodyStopsAtTheLimitAndTheConnectionIsClosed() async throws {
        // Given a server that never ends its body (.ci/check-memory.sh measures one that sends as fast as
        // loopback allows)
        let id = UUID().uuidString
        // When a provider accepting 2 MiB reads it
        let error = await error {
            try await provider(limit: 512 << 10).send(endpoint("endless", ["id": id, "paceMs": "5"]))
        }
        // Then it fails with the limit, and the server sees the client leave
        guard case .responseTooLarge(limit: 512 << 10)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(try await serverSeesClosed(id))
    }

    @Test func aCompressedBodyIsMeasuredAfterDecompression() async throws {
        // Given 4 MiB of zeros sent gzip-compressed (about 4 KiB on the wire, under any limit)
        let bomb = endpoint("gzip", ["bytes": "\(4 << 20)"])
        // When a provider accepting 1 MiB reads it
        let error = await error { try await provider(limit: 1 << 20).send(bomb) }
        // Then the decompressed bytes count
        guard case .responseTooLarge(limit: 1 << 20)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        // And under a limit it fits, it arrives whole and decompressed
        let body = try await provider(limit: 16 << 20).send(bomb)
        #expect(body.count == 4 << 20)
    }

    @Test func anEndpointsOwnLimitWinsOverTheProviders() async throws {
        // Given an endpoint accepting 100 bytes on a provider accepting 32 MiB
        var small = endpoint("large", ["bytes": "200"])
        small.maximumResponseSize = 100
        // When
        let error = await error { try await provider().send(small) }
        // Then
        guard case .responseTooLarge(limit: 100)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        // And a body exactly at the limit is accepted
        small.maximumResponseSize = 200
        #expect(try await provider().send(small).count == 200)
    }

    @Test func aCustomSessionsBodyIsCheckedAgainstTheLimitToo() async throws {
        // Given a stub session answering 2 KiB, and a provider accepting 1 KiB
        var configuration = NetworkProvider.Configuration()
        configuration.maximumResponseSize = 1024
        let provider = NetworkProvider(
            session: StubSession.status(200, body: Data(count: 2048)), configuration: configuration)
        // When
        let error = await error { try await provider.send(endpoint("json")) }
        // Then
        guard case .responseTooLarge(limit: 1024)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
    }

    @Test func theResponseToAnUploadIsBoundedToo() async throws {
        // Given an upload whose answer (the echo of a 4 KiB body) is over an endpoint's 1 KiB limit
        var upload = group.endpoint(.post, "echo", as: Data.self)
        upload.maximumResponseSize = 1024
        // When
        let error = await error { try await provider().upload(upload, data: Data(count: 4096)) }
        // Then
        guard case .responseTooLarge(limit: 1024)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
    }

    @Test func anUploadRefusedWithAnEndlessBodyEndsWithItsStatusAndTheBodysFirstMiB() async throws {
        // Given an upload answered 503 with a body that never ends
        let upload = group.endpoint(
            .post, "big-error", query: [URLQueryItem(name: "status", value: "503")], as: Data.self)
        // When
        let error = await error { try await provider().upload(upload, data: Data(count: 1024)) }
        // Then the status is what the caller gets, with the body's first MiB
        guard case .unacceptableStatus(let failure)? = error as? NetworkError else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 503)
        #expect(failure.body.count == RefusedBody.limit)
    }

    @Test func aHEADAnswerIsNotMeasuredByTheLengthItAnnounces() async throws {
        // Given a HEAD of a 1 GiB resource, and a provider accepting 1 MiB
        var head = endpoint("declared", ["bytes": "\(1 << 30)"])
        head.method = .head
        // When
        let response = try await provider(limit: 1 << 20).response(for: head)
        // Then the length is there to read, and nothing was refused
        #expect(response.httpResponse.expectedContentLength == 1 << 30)
        #expect(response.data.isEmpty)
    }

    @Test func aRefusedStatusOverTheLimitIsReportedAsItsStatus() async throws {
        // Given an endpoint accepting 5 bytes, answered 401 with a longer JSON body
        var small = endpoint("status/401")
        small.maximumResponseSize = 5
        // When
        let error = await error { try await provider().send(small) }
        // Then the status is what the caller (and a refresh or retry middleware) sees, with the body's
        // first 5 bytes
        guard case .unacceptableStatus(let failure)? = error as? NetworkError else {
            Issue.record("expected the 401, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 401)
        #expect(failure.body.count == 5)
    }

    @Test func aRefusedStatusKeepsItsBodysFirstMiBUnderTheDefaultLimit() async throws {
        // Given a 503 with a 2 MiB body, and the default 32 MiB limit
        let error = await error { try await provider().send(endpoint("big-error", ["bytes": "\(2 << 20)"])) }
        // Then the status comes with the body's first MiB
        guard case .unacceptableStatus(let failure)? = error as? NetworkError else {
            Issue.record("expected the 503, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 503)
        #expect(failure.body.count == 1 << 20)
    }

    @Test func aCustomSessionsRefusedStatusKeepsItsBodysFirstMiBToo() async throws {
        // Given a stub session answering 503 with 2 MiB
        let provider = NetworkProvider(session: StubSession.status(503, body: Data(count: 2 << 20)))
        // When
        let error = await error { try await provider.send(endpoint("json")) }
        // Then
        guard case .unacceptableStatus(let failure)? = error as? NetworkError else {
            Issue.record("expected the 503, got \(String(describing: error))")
            return
        }
        #expect(failure.body.count == 1 << 20)
    }

    @Test func aChallenged401WithAnEndlessBodyEndsAStreamWithItsStatus() async throws {
        // Given a 401 asking for Basic credentials whose body never ends, streamed with a small buffer
        var configuration = NetworkProvider.Configuration()
        configuration.streamBufferLimit = 64 << 10
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), configuration: configuration)
        var stream = endpoint("big-error", ["status": "401", "challenge": "1"])
        stream.timeout = .seconds(60)
        // When
        let error = await error { try await provider.stream(stream) }
        // Then the 401 is the answer (on Linux it was held while its body kept coming, and is given out
        // once the body passes 1 MiB), with the body's first bytes, long before the idle timeout
        guard case .unacceptableStatus(let failure)? = error as? NetworkError else {
            Issue.record("expected the 401, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 401)
        #expect(!failure.body.isEmpty)
        #expect(failure.body.count <= 1 << 20)
    }

    @Test func coalescedRequestsShareACallOnlyWhenTheyAcceptTheSameStatuses() async throws {
        // Given a coalescing provider and two identical GETs in flight, one of which accepts 503
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), configuration: .init(coalescesIdenticalGETs: true)
        )
        let strict = endpoint("big-error", ["bytes": "\(2 << 20)"])
        var lenient = strict
        lenient.acceptableStatusCodes = [200, 503]
        // When
        async let strictError = error { try await provider.send(strict) }
        async let lenientBody = provider.send(lenient)
        // Then the one accepting 503 gets its whole body, the other the status with the first MiB
        #expect(try await lenientBody.count == 2 << 20)
        guard case .unacceptableStatus(let failure)? = await strictError as? NetworkError else {
            Issue.record("expected the 503 for the strict request")
            return
        }
        #expect(failure.body.count == 1 << 20)
    }

    @Test func coalescedRequestsShareACallOnlyUnderTheSameLimit() async throws {
        // Given a coalescing provider and two identical GETs in flight at once, one accepting 1,000 bytes
        var configuration = NetworkProvider.Configuration(coalescesIdenticalGETs: true)
        configuration.maximumResponseSize = 32 << 20
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), configuration: configuration)
        let roomy = endpoint("large", ["bytes": "2000", "delayMs": "300"])
        var strict = roomy
        strict.maximumResponseSize = 1000
        // When
        async let roomyBody = provider.send(roomy)
        async let strictError = error { try await provider.send(strict) }
        // Then each gets what its own limit allows
        #expect(try await roomyBody.count == 2000)
        guard case .responseTooLarge(limit: 1000)? = await strictError as? NetworkError else {
            Issue.record("expected responseTooLarge for the strict request")
            return
        }
    }

    @Test func aReaderThatFallsBehindGetsTheHeldChunksThenATypedError() async throws {
        // Given a provider holding at most 64 KiB for a stream's reader, and a body that never ends
        var configuration = NetworkProvider.Configuration()
        configuration.streamBufferLimit = 64 << 10
        let provider = NetworkProvider(
            session: URLSession(configuration: .ephemeral), configuration: configuration)
        let id = UUID().uuidString
        let stream = try await provider.stream(endpoint("endless", ["id": id, "paceMs": "5"]))
        // When the reader does not read until the transfer has been stopped
        #expect(try await serverSeesClosed(id))
        var held = 0
        let thrown = await error { for try await chunk in stream { held += chunk.count } }
        // Then it reads what was held, no more than the buffer, then learns why the stream ended
        #expect(held <= 64 << 10)
        #expect(thrown as? ResponseStreamError == .readerFellBehind(limit: 64 << 10))
    }

    @Test func theErrorNamesTheLimit() {
        #expect(
            NetworkError.responseTooLarge(limit: 1024).description
                == "The response is larger than the limit of 1024 bytes.")
    }
}
