import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every whole body is bounded: a hostile server's declared size, endless body or compressed bomb stops
/// at the limit with ``NetworkError/responseTooLarge(limit:)``, against the fixture server on 127.0.0.1.
@Suite("Response size limits")
struct ResponseLimitTests {
    let server: TestServer
    let group: EndpointGroup

    init() async throws {
        server = try await TestServer.shared.value
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
        // Given a server announcing a 1 GiB body (sent at 64 MB/s at most), and a provider accepting 1 MiB
        let provider = provider(limit: 1 << 20)
        // When
        let started = ContinuousClock.now
        let error = await error { try await provider.send(endpoint("declared", ["bytes": "\(1 << 30)"])) }
        // Then it fails on the head, long before 1 GiB could arrive
        guard case .responseTooLarge(let limit)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1 << 20)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func anEndlessBodyStopsAtTheLimitAndTheConnectionIsClosed() async throws {
        // Given a server that never ends its body (.ci/check-memory.sh measures one that sends as fast as
        // loopback allows)
        let id = UUID().uuidString
        // When a provider accepting 2 MiB reads it
        let error = await error {
            try await provider(limit: 2 << 20).send(endpoint("endless", ["id": id, "paceMs": "1"]))
        }
        // Then it fails with the limit, and the server sees the client leave
        guard case .responseTooLarge(limit: 2 << 20)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(try await serverSeesClosed(id))
    }

    @Test func aCompressedBodyIsMeasuredAfterDecompression() async throws {
        // Given 8 MiB of zeros sent gzip-compressed (about 8 KiB on the wire, under any limit)
        let bomb = endpoint("gzip", ["bytes": "\(8 << 20)"])
        // When a provider accepting 1 MiB reads it
        let error = await error { try await provider(limit: 1 << 20).send(bomb) }
        // Then the decompressed bytes count
        guard case .responseTooLarge(limit: 1 << 20)? = error as? NetworkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        // And under a limit it fits, it arrives whole and decompressed
        let body = try await provider(limit: 16 << 20).send(bomb)
        #expect(body.count == 8 << 20)
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

    @Test func theErrorNamesTheLimit() {
        #expect(
            NetworkError.responseTooLarge(limit: 1024).description
                == "The response is larger than the limit of 1024 bytes.")
    }
}
