import BoxOfficeTerminal
import Foundation
import FuzzSupport

// The input as a command line (arguments separated by NUL bytes): parsing succeeds or throws a usage
// error, whose message is one printable line of bounded length.

/// The program's entry: hands the arguments to libFuzzer.
@_cdecl("ArgumentsFuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}

/// One input. Exported under libFuzzer's name too, which its own `main` (linked in, unused) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let arguments = bytes(data, size).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    do {
        _ = try Arguments.parse(arguments)
    } catch {
        let message = error.message
        if message.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            fatalError("a usage error carries a control character: \(message.debugDescription)")
        }
        if message.count > 200 { fatalError("a usage error is \(message.count) characters long") }
    }
    return 0
}
