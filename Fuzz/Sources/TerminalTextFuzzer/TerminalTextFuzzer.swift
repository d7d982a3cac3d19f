import BoxOfficeTerminal
import Foundation
import FuzzSupport

// Any text from a server, made safe for the terminal: nothing unsafe is left, a line has no line break,
// and JSON stays the same JSON value.

/// The program's entry: hands the arguments to libFuzzer.
@_cdecl("TerminalTextFuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}

/// One input. Exported under libFuzzer's name too, which its own `main` (linked in, unused) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: bytes(data, size), as: UTF8.self)
    let unsafe = { (scalar: Unicode.Scalar) in
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
    let cleaned = TerminalText.clean(text)
    if cleaned.unicodeScalars.contains(where: unsafe) { fatalError("clean left \(cleaned.debugDescription)") }
    let line = TerminalText.line(text)
    if line.contains("\n") || line.unicodeScalars.contains(where: unsafe) {
        fatalError("line left \(line.debugDescription)")
    }
    if TerminalText.excerpt(text).count > 41 { fatalError("an excerpt is too long") }
    let encoder = JSONEncoder()
    if let json = try? encoder.encode(["title": text]) {
        let escaped = TerminalText.escapingControls(inJSON: String(decoding: json, as: UTF8.self))
        let decoded = try? JSONDecoder().decode([String: String].self, from: Data(escaped.utf8))
        if decoded?["title"] != text {
            fatalError("escaping changed the JSON value of \(text.debugDescription)")
        }
        if escaped.unicodeScalars.contains(where: { unsafe($0) && $0 != "\n" }) {
            fatalError("escaped JSON left \(escaped.debugDescription)")
        }
    }
    return 0
}
