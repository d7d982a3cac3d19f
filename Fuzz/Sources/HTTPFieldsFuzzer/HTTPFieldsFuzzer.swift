import Foundation
import FuzzSupport

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Header values and query text from outside: the first line of the input is a `Retry-After` value, the
// rest query items. The wait must be within bounds whatever the value, the request must build, and a
// secret-looking value must never survive redaction.

/// The program's entry: hands the arguments to libFuzzer.
@_cdecl("HTTPFieldsFuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}

let now = Date(timeIntervalSince1970: 1_800_000_000)

/// One input. Exported under libFuzzer's name too, which its own `main` (linked in, unused) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: bytes(data, size), as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let retryAfter = String(lines.first ?? "")
    let query = lines.count > 1 ? String(lines[1]) : ""

    // The parser the middleware uses, then the middleware's own bounds.
    if let wait = RetryAfter.delay(from: retryAfter, now: now), wait < .zero {
        fatalError("Retry-After \(retryAfter.debugDescription) gave a negative wait")
    }
    let policy = RetryPolicy(maxDelay: .seconds(30))
    let backoff = policy.backoff(afterAttempt: size)
    if backoff < .zero || backoff > .seconds(30) { fatalError("a backoff of \(backoff)") }

    let endpoint = Endpoint<EmptyResponse>(
        baseURL: URL(string: "https://api.example.com")!, path: "x",
        queryItems: query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return URLQueryItem(
                name: String(parts.first ?? ""), value: parts.count > 1 ? String(parts[1]) : nil)
        } + [URLQueryItem(name: "key", value: "FUZZSECRET")])
    if let request = try? endpoint.makeRequest() {
        let shown =
            Redaction.redact(request.url) + " " + Redaction.redact(text: request.url?.absoluteString ?? "")
        if shown.contains("FUZZSECRET") { fatalError("the key survived redaction: \(shown)") }
    }
    _ = Redaction.redact(text: text)
    return 0
}
