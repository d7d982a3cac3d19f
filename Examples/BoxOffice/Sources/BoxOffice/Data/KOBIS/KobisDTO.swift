import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `searchDailyBoxOfficeList.json`, as KOBIS sends it: every number is a string.
public struct KobisDailyBoxOfficeResponse: Decodable, Sendable {
    /// The envelope.
    public let boxOfficeResult: Result

    /// The envelope's content.
    public struct Result: Decodable, Sendable {
        /// `"일별 박스오피스"`.
        public let boxofficeType: String
        /// `"yyyyMMdd~yyyyMMdd"`.
        public let showRange: String
        /// Up to 10 rows.
        public let dailyBoxOfficeList: [Row]
    }

    /// One row; field names are KOBIS's.
    public struct Row: Decodable, Sendable {
        /// 순번 (row number).
        public let rnum: String
        /// 해당일자의 박스오피스 순위 (rank that day).
        public let rank: String
        /// 전일대비 순위의 증감분 (rank change, signed).
        public let rankInten: String
        /// `"OLD"` or `"NEW"` (a new entry).
        public let rankOldAndNew: String
        /// 영화의 대표코드 (the movie code).
        public let movieCd: String
        /// 영화명 (the title; may end with a space).
        public let movieNm: String
        /// 개봉일, `yyyy-MM-dd`; can be `" "` for a re-release.
        public let openDt: String
        /// 해당일의 매출액 (sales that day, won).
        public let salesAmt: String
        /// 매출 점유율 (sales share, percent).
        public let salesShare: String
        /// 전일 대비 매출액 증감분 (sales change).
        public let salesInten: String
        /// 전일 대비 매출액 증감 비율 (sales change, percent).
        public let salesChange: String
        /// 누적매출액 (accumulated sales; can exceed Int32).
        public let salesAcc: String
        /// 해당일의 관객수 (admissions that day).
        public let audiCnt: String
        /// 전일 대비 관객수 증감분 (admissions change).
        public let audiInten: String
        /// 전일 대비 관객수 증감 비율 (admissions change, percent).
        public let audiChange: String
        /// 누적관객수 (accumulated admissions).
        public let audiAcc: String
        /// 해당일자에 상영한 스크린수 (screens).
        public let scrnCnt: String
        /// 해당일자에 상영된 횟수 (showings).
        public let showCnt: String
    }
}

/// `searchMovieInfo.json`, as KOBIS sends it.
public struct KobisMovieInfoResponse: Decodable, Sendable {
    /// The envelope.
    public let movieInfoResult: Result

    /// The envelope's content.
    public struct Result: Decodable, Sendable {
        /// The film; `nil` when KOBIS has no film with the code asked for, which it answers with an
        /// empty object (`"movieInfo":{}`).
        public let movieInfo: MovieInfo?
        /// `"영화진흥위원회"`.
        public let source: String?

        enum CodingKeys: String, CodingKey { case movieInfo, source }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// Decodes the envelope; an empty `movieInfo` object is `nil`, anything else must be a film.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            source = try container.decodeIfPresent(String.self, forKey: .source)
            let fields = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .movieInfo)
            movieInfo =
                fields.allKeys.isEmpty ? nil : try container.decode(MovieInfo.self, forKey: .movieInfo)
        }

        /// An envelope around `movieInfo`.
        public init(movieInfo: MovieInfo?, source: String?) {
            self.movieInfo = movieInfo
            self.source = source
        }
    }

    /// The film; field names are KOBIS's (`companys` included).
    public struct MovieInfo: Decodable, Sendable {
        /// 영화코드 (the movie code).
        public let movieCd: String
        /// 영화명 (the Korean title).
        public let movieNm: String
        /// 영화명(영문) (the English title).
        public let movieNmEn: String
        /// 상영시간 (minutes).
        public let showTm: String
        /// 제작연도 (production year).
        public let prdtYear: String
        /// 개봉일, `yyyyMMdd` (no dashes).
        public let openDt: String
        /// 영화명(원문) (the original title, usually empty).
        public let movieNmOg: String?
        /// 제작상태명 (production status).
        public let prdtStatNm: String?
        /// 영화유형명 (feature, short…).
        public let typeNm: String?
        /// 제작국가 (countries).
        public let nations: [Nation]
        /// 장르 (genres).
        public let genres: [Genre]
        /// 감독 (directors).
        public let directors: [Person]
        /// 배우 (actors).
        public let actors: [Person]
        /// 참여 영화사 (companies; KOBIS spells the key `companys`).
        public let companys: [Company]?
        /// 심의정보 (ratings).
        public let audits: [Audit]
        /// 상영형태 (screening formats).
        public let showTypes: [ShowType]?
        /// 스텝 (staff; can be empty).
        public let staffs: [Staff]?
    }

    /// A production country.
    public struct Nation: Decodable, Sendable {
        /// The country's name.
        public let nationNm: String
    }
    /// A genre.
    public struct Genre: Decodable, Sendable {
        /// The genre's name.
        public let genreNm: String
    }
    /// A director or actor.
    public struct Person: Decodable, Sendable {
        /// The Korean name.
        public let peopleNm: String
        /// The English name, often empty.
        public let peopleNmEn: String?
    }
    /// A company and its part (`배급사`, `제작사`…).
    public struct Company: Decodable, Sendable {
        /// The company code.
        public let companyCd: String?
        /// The company's name.
        public let companyNm: String
        /// Its part: `배급사`, `제작사`, `수입사`….
        public let companyPartNm: String?
    }
    /// A rating decision; `auditNo` can carry a trailing space.
    public struct Audit: Decodable, Sendable {
        /// The decision's number (may end with a space).
        public let auditNo: String?
        /// The rating, such as `15세이상관람가`.
        public let watchGradeNm: String
    }
    /// A screening format.
    public struct ShowType: Decodable, Sendable {
        /// The group, such as `2D` or `IMAX`.
        public let showTypeGroupNm: String
        /// The format, such as `디지털`.
        public let showTypeNm: String
    }
    /// A staff member.
    public struct Staff: Decodable, Sendable {
        /// The name.
        public let peopleNm: String
        /// The role.
        public let staffRoleNm: String?
    }
}

/// KOBIS's error body, sent with HTTP 200 instead of the normal result.
struct KobisFaultResponse: Decodable {
    struct FaultInfo: Decodable {
        let message: String
        let errorCode: String
    }
    let faultInfo: FaultInfo
}

/// An error KOBIS reported (its `faultInfo`), such as 320010, an invalid key.
public struct KobisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// KOBIS's six-digit code, such as `"320010"`.
    public let code: String
    /// KOBIS's message, verbatim (typos included).
    public let message: String

    /// The fault code the demo data (and its test server) answer an unknown movie code with, "영화코드가
    /// 존재하지 않습니다". KOBIS itself was seen answering one with an empty `movieInfo` instead; both
    /// read as ``BoxOfficeError/notFound(_:)``.
    public static let noSuchMovie = "320011"

    /// `KOBIS error 320010: 유효하지않은 키값입니다.`
    public var description: String { "KOBIS error \(code): \(message)" }

    /// The endpoint-group hook: throws the fault when a 2xx body is one.
    static func check(_ data: Data, _ response: HTTPURLResponse) throws {
        guard data.range(of: Data("\"faultInfo\"".utf8)) != nil,
            let fault = try? JSONDecoder().decode(KobisFaultResponse.self, from: data)
        else { return }
        throw KobisError(code: fault.faultInfo.errorCode, message: fault.faultInfo.message)
    }
}
