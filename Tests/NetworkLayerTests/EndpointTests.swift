import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Endpoint: building requests")
struct EndpointTests {
    enum KobisAPI {
        struct Daily: Decodable, Sendable { let boxOfficeResult: [String: String] }
        struct MovieInfo: Decodable, Sendable { let movieInfoResult: [String: String] }
        static let group = EndpointGroup(
            baseURL: URL(string: "https://www.kobis.or.kr/kobisopenapi/webservice/rest")!,
            queryItems: [URLQueryItem(name: "key", value: "SECRET")])
        static func dailyBoxOffice(date: String) -> Endpoint<Daily> {
            group.get("boxoffice/searchDailyBoxOfficeList.json", query: ["targetDt": date])
        }
        static func movieInfo(code: String) -> Endpoint<MovieInfo> {
            group.get("movie/searchMovieInfo.json", query: ["movieCd": code])
        }
    }

    @Test func oneGroupMakesEndpointsOfDifferentResponseTypes() throws {
        // Given the group's two endpoints, each typed by its own response
        let daily: Endpoint<KobisAPI.Daily> = KobisAPI.dailyBoxOffice(date: "20261121")
        let info: Endpoint<KobisAPI.MovieInfo> = KobisAPI.movieInfo(code: "20124079")
        // When
        let dailyURL = try daily.makeRequest().url?.absoluteString
        let infoURL = try info.makeRequest().url?.absoluteString
        // Then both share the base URL and the key, each with its own path and query
        #expect(
            dailyURL
                == "https://www.kobis.or.kr/kobisopenapi/webservice/rest/boxoffice/searchDailyBoxOfficeList.json?key=SECRET&targetDt=20261121"
        )
        #expect(
            infoURL
                == "https://www.kobis.or.kr/kobisopenapi/webservice/rest/movie/searchMovieInfo.json?key=SECRET&movieCd=20124079"
        )
    }

    @Test func slashesBetweenBaseAndPathAreNotDoubled() throws {
        // Given
        let endpoint = Endpoint<Data>(baseURL: URL(string: "https://api.example.com/v1/")!, path: "/movies")
        // Then
        #expect(try endpoint.makeRequest().url?.absoluteString == "https://api.example.com/v1/movies")
    }

    @Test func queryValuesAreEscapedAsUTF8IncludingPlusAmpersandAndEquals() throws {
        // Given
        let endpoint = Endpoint<Movie>(
            baseURL: exampleURL, path: "search",
            queryItems: [URLQueryItem(name: "query", value: "광해 포스터+1&a=b")])
        // Then
        #expect(
            try endpoint.makeRequest().url?.query
                == "query=%EA%B4%91%ED%95%B4%20%ED%8F%AC%EC%8A%A4%ED%84%B0%2B1%26a%3Db")
    }

    @Test func aJSONBodyIsEncodedWithItsContentType() throws {
        // Given
        let endpoint = Endpoint<Movie>(
            baseURL: exampleURL, path: "movies", method: .post, body: .json(Movie(title: "Wonka", year: 2023))
        )
        // When
        let request = try endpoint.makeRequest()
        // Then
        #expect(request.httpMethod == "POST")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let decoded = try JSONDecoder().decode(Movie.self, from: request.httpBody ?? Data())
        #expect(decoded == Movie(title: "Wonka", year: 2023))
    }

    @Test func aFormBodyIsURLEncoded() throws {
        // Given
        let endpoint = Endpoint<Movie>(
            baseURL: exampleURL, path: "login", method: .post,
            body: .form([
                URLQueryItem(name: "user", value: "kim min"), URLQueryItem(name: "pass", value: "a+b"),
            ]))
        // When
        let request = try endpoint.makeRequest()
        // Then
        #expect(String(data: request.httpBody ?? Data(), encoding: .utf8) == "user=kim%20min&pass=a%2Bb")
        #expect(
            request.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/x-www-form-urlencoded")
                == true)
    }

    @Test func aMultipartBodyHasEachPartBetweenBoundaries() throws {
        // Given
        var form = MultipartFormData(boundary: "XYZ")
        form.append("Wonka", name: "title")
        form.append(Data([1, 2, 3]), name: "poster", fileName: "poster.png", contentType: "image/png")
        // When
        let body = try form.encoded()
        // Then
        let expected =
            "--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nWonka\r\n"
            + "--XYZ\r\nContent-Disposition: form-data; name=\"poster\"; filename=\"poster.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n\u{1}\u{2}\u{3}\r\n--XYZ--\r\n"
        #expect(String(data: body, encoding: .utf8) == expected)
        #expect(RequestBody.multipart(form).contentType == "multipart/form-data; boundary=XYZ")
    }

    @Test func headersOfTheGroupAndTheEndpointAreMergedWithTheEndpointWinning() throws {
        // Given
        let group = EndpointGroup(
            baseURL: exampleURL, headers: ["Accept": "application/json", "X-App": "group"])
        let endpoint: Endpoint<Movie> = group.endpoint(.get, "movies", headers: ["X-App": "endpoint"])
        // When
        let request = try endpoint.makeRequest()
        // Then
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "X-App") == "endpoint")
    }

    @Test func aBaseURLWithoutAHostIsAnInvalidRequest() {
        // Given
        let endpoint = Endpoint<Data>(baseURL: URL(fileURLWithPath: "/tmp"), path: "x")
        // When
        let failure = #expect(throws: NetworkError.self) { try endpoint.makeRequest() }
        // Then
        guard case .invalidRequest(.url) = failure else {
            Issue.record("expected an invalid URL, got \(String(describing: failure))")
            return
        }
    }

    @Test func aBodyThatCannotBeEncodedIsAnInvalidRequestNamingTheEndpoint() {
        // Given a body whose encoding throws
        struct Unencodable: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "nope"))
            }
        }
        let endpoint = Endpoint<Movie>(
            baseURL: exampleURL, path: "movies", method: .post, body: .json(Unencodable()))
        // When
        let failure = #expect(throws: NetworkError.self) { try endpoint.makeRequest() }
        // Then
        #expect(failure?.description.contains("the body of POST movies could not be encoded") == true)
    }

    @Test func onlyIdempotentMethodsAreIdempotentByDefault() {
        #expect(Endpoint<Data>(baseURL: exampleURL, path: "a", method: .get).isIdempotent)
        #expect(Endpoint<Data>(baseURL: exampleURL, path: "a", method: .put).isIdempotent)
        #expect(!Endpoint<Data>(baseURL: exampleURL, path: "a", method: .post).isIdempotent)
    }
}
