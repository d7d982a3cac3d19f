import BoxOffice
import Foundation
import FuzzSupport

// The bytes as each API response the example decodes, through the same mapping the app uses: decoding
// may fail, mapping may refuse, but nothing may trap.

/// The program's entry: hands the arguments to libFuzzer.
@_cdecl("APIDecodingFuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}

/// One input. Exported under libFuzzer's name too, which its own `main` (linked in, unused) refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(bytes(data, size))
    let decoder = JSONDecoder()
    if let daily = try? decoder.decode(KobisDailyBoxOfficeResponse.self, from: bytes),
        let day = try? Day(dashed: "2026-11-21")
    {
        _ = try? DailyBoxOffice(day: day, response: daily)
    }
    if let info = try? decoder.decode(KobisMovieInfoResponse.self, from: bytes) {
        _ = try? MovieDetails(response: info)
    }
    if let search = try? decoder.decode(KakaoImageSearchResponse.self, from: bytes) {
        _ = search.documents.first.flatMap { URL(string: $0.imageURL) }
    }
    return 0
}
