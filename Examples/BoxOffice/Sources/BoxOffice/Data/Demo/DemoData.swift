import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo dataset shipped with the example: real-schema KOBIS and Kakao responses for a few days of
/// fictional films, served through the same `NetworkSessionType` seam as live data.
public struct DemoData: Sendable {
    /// The folder holding `kobis/daily`, `kobis/movie` and `kakao/image`.
    public let directory: URL

    /// The dataset bundled with the app.
    public static var bundled: DemoData? {
        Bundle.module.url(forResource: "DemoData", withExtension: nil).map { DemoData(directory: $0) }
    }

    /// The host of demo poster images (`https://posters.demo.boxoffice.invalid/<code>.png`).
    public static let posterHost = "posters.demo.boxoffice.invalid"

    /// Creates a dataset from a folder.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The days with a chart, oldest first.
    public var days: [Day] {
        let names =
            (try? FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("kobis/daily").path)) ?? []
        return names.compactMap { name in
            guard name.hasSuffix(".json") else { return nil }
            return try? Day(compact: String(name.dropLast(5)))
        }.sorted()
    }

    /// A session answering KOBIS's and Kakao's endpoints, and poster downloads, from the dataset.
    ///
    /// A day without a chart answers with an empty list, as KOBIS does for a day it has no data for; a
    /// film without details answers with KOBIS's fault for a bad code.
    public func session() -> StubSession {
        let titles = movieTitles()
        let films = movieInfos()
        return StubSession { request in
            guard let url = request.url else { throw URLError(.badURL) }
            if url.host == Self.posterHost {
                let code = url.deletingPathExtension().lastPathComponent
                // A demo poster never changes: the HTTP cache may keep it fresh for a year.
                return try Self.answer(
                    request, PosterArtist.poster(seed: code), contentType: "image/png",
                    headers: ["Cache-Control": "max-age=31536000, immutable", "ETag": "\"\(code)\""])
            }
            let query = Dictionary(
                (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
                    ($0.name, $0.value ?? "")
                },
                uniquingKeysWith: { first, _ in first })
            switch url.lastPathComponent {
            case "searchDailyBoxOfficeList.json":
                let date = query["targetDt"] ?? ""
                let body =
                    file("kobis/daily/\(date).json")
                    ?? Data(
                        #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"\#(date)~\#(date)","dailyBoxOfficeList":[]}}"#
                            .utf8)
                return try Self.answer(request, body)
            case "searchMovieInfo.json":
                let code = query["movieCd"] ?? ""
                let fault = #"{"faultInfo":{"message":"영화코드가 존재하지 않습니다.","errorCode":"320011"}}"#
                return try Self.answer(request, file("kobis/movie/\(code).json") ?? Data(fault.utf8))
            case "searchMovieList.json":
                let limit = min(max(Int(query["itemPerPage"] ?? "") ?? 10, 1), 100)
                return try Self.answer(
                    request, try Self.searchAnswer(films, title: query["movieNm"] ?? "", limit: limit))
            case "image":
                let searched = query["query"] ?? ""
                let code = titles.first { searched == "\($0.value) 영화 포스터" }?.key
                let empty = #"{"documents":[],"meta":{"is_end":true,"pageable_count":0,"total_count":0}}"#
                return try Self.answer(
                    request, code.flatMap { file("kakao/image/\($0).json") } ?? Data(empty.utf8))
            default:
                return try Self.answer(
                    request, Data(#"{"errorType":"NotFound","message":"no demo data"}"#.utf8), status: 404)
            }
        }
    }

    /// KOBIS's answer to a title search over the dataset's films: those whose Korean or English title
    /// contains `title`, ignoring case, in movie-code order.
    static func searchAnswer(_ films: [KobisMovieInfoResponse.MovieInfo], title: String, limit: Int) throws
        -> Data
    {
        let wanted = title.trimmingCharacters(in: .whitespaces)
        let matches = films.filter { film in
            !wanted.isEmpty
                && (film.movieNm.localizedCaseInsensitiveContains(wanted)
                    || film.movieNmEn.localizedCaseInsensitiveContains(wanted))
        }
        let movies = matches.prefix(limit).map { film in
            KobisMovieListResponse.Movie(
                movieCd: film.movieCd, movieNm: film.movieNm, movieNmEn: film.movieNmEn,
                prdtYear: film.prdtYear,
                openDt: film.openDt, genreAlt: film.genres.map(\.genreNm).joined(separator: ","),
                directors: film.directors.map { KobisMovieListResponse.Person(peopleNm: $0.peopleNm) })
        }
        let response = KobisMovieListResponse(
            movieListResult: .init(totCnt: matches.count, source: "영화진흥위원회", movieList: Array(movies)))
        return try JSONEncoder().encode(response)
    }

    /// Every film's details in the dataset, in movie-code order.
    func movieInfos() -> [KobisMovieInfoResponse.MovieInfo] {
        let folder = directory.appendingPathComponent("kobis/movie")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            file("kobis/movie/\(name)").flatMap {
                try? JSONDecoder().decode(KobisMovieInfoResponse.self, from: $0)
            }?
            .movieInfoResult.movieInfo
        }
    }

    /// Each film's trimmed title, by movie code.
    func movieTitles() -> [String: String] {
        let folder = directory.appendingPathComponent("kobis/movie")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var titles: [String: String] = [:]
        for name in names where name.hasSuffix(".json") {
            guard let data = file("kobis/movie/\(name)"),
                let info = try? JSONDecoder().decode(KobisMovieInfoResponse.self, from: data).movieInfoResult
                    .movieInfo
            else { continue }
            titles[info.movieCd] = info.movieNm.trimmingCharacters(in: .whitespaces)
        }
        return titles
    }

    private func file(_ path: String) -> Data? {
        try? Data(contentsOf: directory.appendingPathComponent(path))
    }

    private static func answer(
        _ request: URLRequest, _ body: Data, contentType: String = "application/json;charset=UTF-8",
        status: Int = 200, headers: [String: String] = [:]
    ) throws -> (Data, HTTPURLResponse) {
        let fields = headers.merging(["Content-Type": contentType]) { own, _ in own }
        return (body, try StubSession.makeResponse(for: request, status: status, headers: fields))
    }
}
