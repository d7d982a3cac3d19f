import Foundation

/// `searchMovieList.json`, as KOBIS sends it: `totCnt` is a number, everything else a string, and
/// genres and nations are one comma-separated string each.
///
/// It is `Encodable` too, so the demo data can answer searches in the same schema.
public struct KobisMovieListResponse: Codable, Sendable {
    /// The envelope.
    public let movieListResult: Result

    /// Creates a response (the demo data's).
    public init(movieListResult: Result) {
        self.movieListResult = movieListResult
    }

    /// The envelope's content.
    public struct Result: Codable, Sendable {
        /// How many films match in all. KOBIS sends a number; a numeric string is accepted too.
        public let totCnt: Int
        /// `"영화진흥위원회"`.
        public let source: String?
        /// This page of matches.
        public let movieList: [Movie]

        /// Creates a result.
        public init(totCnt: Int, source: String?, movieList: [Movie]) {
            self.totCnt = totCnt
            self.source = source
            self.movieList = movieList
        }

        private enum CodingKeys: String, CodingKey { case totCnt, source, movieList }

        /// Decodes KOBIS's envelope, `totCnt` as a number or a numeric string.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let count = try? container.decode(Int.self, forKey: .totCnt) {
                totCnt = count
            } else {
                let text = try container.decode(String.self, forKey: .totCnt)
                guard let count = Int(text.trimmingCharacters(in: .whitespaces)) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .totCnt, in: container, debugDescription: "totCnt is not a whole number")
                }
                totCnt = count
            }
            source = try container.decodeIfPresent(String.self, forKey: .source)
            movieList = try container.decode([Movie].self, forKey: .movieList)
        }
    }

    /// One film; field names are KOBIS's.
    public struct Movie: Codable, Sendable {
        /// 영화코드 (the movie code).
        public let movieCd: String
        /// 영화명(국문) (the Korean title).
        public let movieNm: String
        /// 영화명(영문) (the English title; may be `""`).
        public let movieNmEn: String?
        /// 제작연도 (`yyyy`, or `""`).
        public let prdtYear: String?
        /// 개봉일 (`yyyyMMdd`, or `""` for a film not released).
        public let openDt: String?
        /// 전체 장르, comma-separated (`"드라마,코미디"`).
        public let genreAlt: String?
        /// 영화감독.
        public let directors: [Person]?

        /// Creates a film entry (the demo data's).
        public init(
            movieCd: String, movieNm: String, movieNmEn: String?, prdtYear: String?, openDt: String?,
            genreAlt: String?, directors: [Person]?
        ) {
            self.movieCd = movieCd
            self.movieNm = movieNm
            self.movieNmEn = movieNmEn
            self.prdtYear = prdtYear
            self.openDt = openDt
            self.genreAlt = genreAlt
            self.directors = directors
        }
    }

    /// A person, by name.
    public struct Person: Codable, Sendable {
        /// 감독명.
        public let peopleNm: String

        /// Creates a person.
        public init(peopleNm: String) {
            self.peopleNm = peopleNm
        }
    }
}
