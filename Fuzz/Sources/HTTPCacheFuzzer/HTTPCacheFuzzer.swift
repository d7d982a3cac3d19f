import Foundation
import FuzzSupport

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// A cached answer's fields from a hostile server: the input's lines are Cache-Control, Date, Age,
// Expires and Last-Modified values, then a request's Cache-Control and Pragma, an ETag, and a URL; the
// whole input is also read as a stored answer's bytes. Whatever they are, ages and lifetimes stay within
// 0...2^31 seconds, the cache's decision (CacheDecision) and its key never trap, a validator sent back
// is at most 1 KiB, and reading never traps.

/// The program's entry: hands the arguments to libFuzzer.
@_cdecl("HTTPCacheFuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}

let now = Date(timeIntervalSince1970: 1_800_000_000)
let largest = Double(CacheControl.largestDelta)

/// One input. Exported under libFuzzer's name too, which its own `main` (linked in, unused) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let lines = String(decoding: input, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
    func line(_ index: Int) -> String? { index < lines.count ? String(lines[index]) : nil }
    var headers: [String: String] = [:]
    for (index, name) in ["cache-control", "date", "age", "expires", "last-modified"].enumerated() {
        if let value = line(index) { headers[name] = value }
    }
    let control = CacheControl(headers["cache-control"])
    for value in [control.maxAge, control.staleIfError, control.staleWhileRevalidate, control.maxStale] {
        if let value, value < 0 || value > CacheControl.largestDelta { fatalError("a delta of \(value)") }
    }
    let entry = CachedHTTPResponse(
        statusCode: 200, headers: headers, body: Data(), requestDate: now.addingTimeInterval(-1),
        responseDate: now)
    for later in [0.0, 3_600, 1e12] {
        let freshness = Freshness(of: entry, at: now.addingTimeInterval(later), heuristicFraction: 0.1)
        for value in [freshness.age, freshness.lifetime, freshness.staleness] {
            if !(0...largest).contains(value) { fatalError("an age or lifetime of \(value)") }
        }
        _ = freshness.allowsStaleAfterError(accepting: .infinity)
        _ = freshness.allowsStaleWhileRevalidating
    }
    decide(entry, line: line)
    if let stored = try? CachedHTTPResponse(serialized: Data(input)),
        stored.body.count > input.count
    {
        fatalError("a stored answer larger than its bytes")
    }
    return 0
}

/// Runs the cache's decisions on `entry` and the input's request lines: the lookup, a `304` with the
/// input's ETag and Last-Modified, a whole answer, an unsafe method's invalidation, and the key.
func decide(_ entry: CachedHTTPResponse, line: (Int) -> String?) {
    let url = line(8).flatMap { URL(string: $0) } ?? URL(string: "https://fuzz.example/a")!
    var request = URLRequest(url: url)
    if let control = line(5) { request.setValue(control, forHTTPHeaderField: "Cache-Control") }
    if let pragma = line(6) { request.setValue(pragma, forHTTPHeaderField: "Pragma") }
    var stored = entry
    if let tag = line(7) { stored.headers["ETag"] = tag }
    for policy in [CachePolicy.useProtocol, .revalidate, .returnCacheElseLoad, .onlyIfCached] {
        let decision = CacheDecision.decide(
            CacheRequest(request), sent: request, stored: stored, invalidatedAt: now, policy: policy,
            now: now,
            heuristicFraction: 0.1)
        if case .ask(let validators) = decision, (validators["If-None-Match"]?.utf8.count ?? 0) > 1024 {
            fatalError("a validator of \(validators["If-None-Match"]?.utf8.count ?? 0) bytes")
        }
    }
    var fields: [String: String] = [:]
    for (index, name) in ["ETag", "Last-Modified", "Cache-Control", "Location"].enumerated() {
        if let value = line(index + 4) { fields[name] = value }
    }
    if let http = HTTPURLResponse(url: url, statusCode: 304, httpVersion: "HTTP/1.1", headerFields: fields) {
        _ = CacheDecision.afterNotModified(http, validated: stored, requestDate: now, responseDate: now)
        _ = CacheDecision.afterAnswer(
            http, body: Data(), request: request, sent: request, requestDate: now, responseDate: now)
        _ = CacheDecision.invalidated(
            method: "POST", url: url, status: 201, location: fields["Location"], contentLocation: line(3))
    }
    _ = CacheKey(request, partition: line(7))
}
