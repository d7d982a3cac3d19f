import Foundation
import NetworkLayer
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let exampleURL = URL(string: "https://api.example.com/v1")!

struct Movie: Codable, Equatable, Sendable {
    let title: String
    let year: Int
}

/// Answers every request by echoing it, as the fixture server's /echo does.
struct Echo: Decodable, Sendable {
    let method: String
    let path: String
    let query: [String: String]
    let rawQuery: String
    let headers: [String: String]
    let body: String
}

/// A stub that records each request it receives as the `URLRequest` itself, credentials included: for
/// tests of the request as built (a header's value, the body's bytes). `StubSession.requests` records
/// them redacted, which is what a test that only asks whether a credential went out should read.
func recordingStub(_ answer: StubSession = .json(#"{"title":"Wonka","year":2023}"#)) -> (
    StubSession, Recorder<URLRequest>
) {
    let recorder = Recorder<URLRequest>()
    let session = StubSession { request in
        recorder.append(request)
        return try await answer.response(for: request)
    }
    return (session, recorder)
}

/// Catches the error an async call throws.
func error(of operation: () async throws -> some Any) async -> (any Error)? {
    do {
        _ = try await operation()
        return nil
    } catch {
        return error
    }
}

/// `count` bytes where byte i is i % `period`, built from whole blocks (cheap even in a debug build).
func patterned(_ count: Int, period: Int) -> Data {
    let block = Data((0..<period).map { UInt8($0) })
    var data = Data(capacity: count)
    while data.count < count { data.append(block.prefix(count - data.count)) }
    return data
}

/// A provider on an ephemeral `URLSession` that asks for a download in windows of `window` bytes (`nil`:
/// in one request).
func downloadProvider(window: Int?) -> NetworkProvider {
    var configuration = NetworkProvider.Configuration()
    configuration.downloadWindow = window
    return NetworkProvider(session: URLSession(configuration: .ephemeral), configuration: configuration)
}

/// The `Range` header of each request the fixture server's /ranged got for the download `id` ("" for
/// none), in order.
func rangesAsked(_ id: String, of group: EndpointGroup) async throws -> [String] {
    struct Log: Decodable { let ranges: [String] }
    let log: Endpoint<Log> = group.get("ranged-log", query: ["id": id])
    return try await downloadProvider(window: nil).send(log).ranges
}
