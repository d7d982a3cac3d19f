import Foundation
import FuzzSupport

@testable import NetworkLayer

// A cached answer's fields from a hostile server: the input's lines are Cache-Control, Date, Age,
// Expires and Last-Modified values; the whole input is also read as a stored answer's bytes. Whatever
// they are, ages and lifetimes stay within 0...2^31 seconds, and reading never traps.

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
    if let stored = try? CachedHTTPResponse(serialized: Data(input)),
        stored.body.count > input.count
    {
        fatalError("a stored answer larger than its bytes")
    }
    return 0
}
