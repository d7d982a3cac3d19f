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
        public let rnum, rank, rankInten, rankOldAndNew, movieCd, movieNm, openDt: String
        public let salesAmt, salesShare, salesInten, salesChange, salesAcc: String
        public let audiCnt, audiInten, audiChange, audiAcc, scrnCnt, showCnt: String
    }
}

/// `searchMovieInfo.json`, as KOBIS sends it.
public struct KobisMovieInfoResponse: Decodable, Sendable {
    /// The envelope.
    public let movieInfoResult: Result

    /// The envelope's content.
    public struct Result: Decodable, Sendable {
        /// The film.
        public let movieInfo: MovieInfo
        /// `"영화진흥위원회"`.
        public let source: String?
    }

    /// The film; field names are KOBIS's (`companys` included).
    public struct MovieInfo: Decodable, Sendable {
        public let movieCd, movieNm, movieNmEn, showTm, prdtYear, openDt: String
        public let movieNmOg, prdtStatNm, typeNm: String?
        public let nations: [Nation]
        public let genres: [Genre]
        public let directors: [Person]
        public let actors: [Person]
        public let companys: [Company]?
        public let audits: [Audit]
        public let showTypes: [ShowType]?
        public let staffs: [Staff]?
    }

    /// A production country.
    public struct Nation: Decodable, Sendable { public let nationNm: String }
    /// A genre.
    public struct Genre: Decodable, Sendable { public let genreNm: String }
    /// A director or actor.
    public struct Person: Decodable, Sendable {
        public let peopleNm: String
        public let peopleNmEn: String?
    }
    /// A company and its part (`배급사`, `제작사`…).
    public struct Company: Decodable, Sendable {
        public let companyCd: String?
        public let companyNm: String
        public let companyPartNm: String?
    }
    /// A rating decision; `auditNo` can carry a trailing space.
    public struct Audit: Decodable, Sendable {
        public let auditNo: String?
        public let watchGradeNm: String
    }
    /// A screening format.
    public struct ShowType: Decodable, Sendable {
        public let showTypeGroupNm: String
        public let showTypeNm: String
    }
    /// A staff member.
    public struct Staff: Decodable, Sendable {
        public let peopleNm: String
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
