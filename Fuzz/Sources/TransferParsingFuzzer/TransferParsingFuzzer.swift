import Foundation
import FuzzSupport

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// What a streaming or resumed transfer reads from a server, and what `cURL` prints of a request. The
// input's first byte sets where the body is cut into chunks; the rest is the body, read as lines and as
// server-sent events, its first line as a `Content-Range` header, and all of it as a header value and a
// body rendered by `Redaction.cURL`.

/// The program's entry: hands the arguments to libFuzzer.
@_cdecl("TransferParsingFuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}

/// One input. Exported under libFuzzer's name too, which its own `main` (linked in, unused) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    guard let first = input.first else { return 0 }
    let body = Data(input.dropFirst())
    let chunkSize = Int(first % 16) + 1
    let limit = 64

    // Lines and events do not depend on where the chunks were cut.
    let whole = read(body, chunkSize: body.count + 1, limit: limit)
    let chunked = read(body, chunkSize: chunkSize, limit: limit)
    if whole != chunked {
        fatalError("chunks of \(chunkSize) changed the reading: \(whole) vs \(chunked)")
    }
    for line in whole.lines where line.utf8.count > limit * 3 {
        // Each undecodable byte may become a 3-byte replacement character, no more.
        fatalError("a line of \(line.utf8.count) bytes passed a \(limit)-byte limit")
    }

    // A Content-Range, when accepted, is consistent (the byte after its last one is a number: a
    // download computes it) and reads back the same.
    let header = String(decoding: body.prefix { $0 != 0x0A }, as: UTF8.self)
    if let range = ContentRange(header) {
        if range.first > range.last || range.total.map({ range.last >= $0 }) == true
            || range.last.addingReportingOverflow(1).overflow
        {
            fatalError("\(header.debugDescription) was accepted as \(range)")
        }
        let total = range.total.map(String.init) ?? "*"
        if ContentRange("bytes \(range.first)-\(range.last)/\(total)") != range {
            fatalError("\(range) does not read back")
        }
    }
    // A 416's `bytes */N`, when accepted, is a length that reads back the same, and a header is never
    // read both as a range and as a 416's length.
    if let length = ContentRange.unsatisfiedLength(header) {
        if ContentRange.unsatisfiedLength("bytes */\(length)") != length || ContentRange(header) != nil {
            fatalError("\(header.debugDescription) was accepted as the length \(length)")
        }
    }

    // cURL quotes every byte it prints and never shows a secret header or a form's secret field.
    let text = String(decoding: body, as: UTF8.self)
    var request = URLRequest(url: URL(string: "https://api.example.com/x")!)
    request.httpMethod = "POST"
    request.setValue("Bearer FUZZSECRET", forHTTPHeaderField: "Authorization")
    request.setValue(text, forHTTPHeaderField: "X-Note")
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data((text + "&password=FUZZSECRET").utf8)
    let command = Redaction.cURL(request)
    // An input holding the marker itself may show it in a field that is not secret.
    if !text.contains("FUZZSECRET"), command.contains("FUZZSECRET") {
        fatalError("a secret survived: \(command)")
    }
    // Line breaks only end the command's lines (after ` \`); no other control character is printed.
    let lines = command.split(separator: "\n", omittingEmptySubsequences: false)
    let printsControl =
        lines.dropLast().contains { !$0.hasSuffix(" \\") }
        || command.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control }
    if printsControl { fatalError("a control character is printed raw: \(command.debugDescription)") }
    return 0
}

/// What a stream of `body` in chunks of `chunkSize` bytes yields: lines (or the first error) and events.
struct Reading: Equatable, CustomStringConvertible {
    var lines: [String] = []
    var events: [ServerSentEvent] = []
    var failed = false

    var description: String { "\(lines.count) lines, \(events.count) events, failed: \(failed)" }
}

func read(_ body: Data, chunkSize: Int, limit: Int) -> Reading {
    var reading = Reading()
    var splitter = LineSplitter(maximumLength: limit)
    var parser = EventParser(maximumLength: limit)
    func take(_ line: String) throws(ResponseStreamError) {
        reading.lines.append(line)
        if let event = try parser.consume(line) { reading.events.append(event) }
    }
    do throws(ResponseStreamError) {
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + chunkSize)
            splitter.append(body.subdata(in: offset..<end))
            offset = end
            while let line = try splitter.nextLine() { try take(line) }
        }
        if let last = splitter.finish() { reading.lines.append(last) }
    } catch {
        reading.failed = true
    }
    return reading
}
