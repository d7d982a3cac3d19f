import BoxOffice
import Foundation
import FuzzSupport

@testable import BoxOfficeTerminal

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
    // Mapped values are rendered too, as `daily`, `--mode grid` and `movie` would print them.
    let screens = [
        Screen(style: Style(isEnabled: true), columns: nil),
        Screen(style: Style(isEnabled: false), columns: 30),
    ]
    if let daily = try? decoder.decode(KobisDailyBoxOfficeResponse.self, from: bytes),
        let day = try? Day(dashed: "2026-11-21"), let chart = try? DailyBoxOffice(day: day, response: daily)
    {
        for screen in screens {
            _ = Renderers.list(chart.entries, screen: screen, selected: 0)
            _ = Renderers.grid(chart.entries, screen: screen, selected: 0)
        }
    }
    if let info = try? decoder.decode(KobisMovieInfoResponse.self, from: bytes),
        let movie = try? MovieDetails(response: info)
    {
        for screen in screens { _ = Renderers.details(movie, poster: .notFound, screen: screen) }
    }
    if let search = try? decoder.decode(KakaoImageSearchResponse.self, from: bytes) {
        _ = search.documents.first.flatMap { URL(string: $0.imageURL) }
    }
    return 0
}
