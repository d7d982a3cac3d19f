import Foundation
import Testing

@testable import NetworkLayer

/// The URL text a request is made from is ASCII whatever its path holds, since `URL(string:)` encodes
/// other characters itself only from iOS 17 and macOS 14 (and on Linux, where a test of the URL alone
/// would pass either way).
@Suite("Endpoint: the URL text is ASCII")
struct RequestURLTests {
    static let base = URL(string: "https://api.example.com/v1")!

    @Test(arguments: [
        ("movies/기생충", "https://api.example.com/v1/movies/%EA%B8%B0%EC%83%9D%EC%B6%A9"),
        ("users/kim lee", "https://api.example.com/v1/users/kim%20lee"),
        ("a/%20b", "https://api.example.com/v1/a/%20b"),
        ("100%", "https://api.example.com/v1/100%25"),
        ("50%zz", "https://api.example.com/v1/50%25zz"),
        ("search?q=1#top", "https://api.example.com/v1/search?q=1#top"),
        ("x<y>|{z}", "https://api.example.com/v1/x%3Cy%3E%7C%7Bz%7D"),
        ("a[0]%2F", "https://api.example.com/v1/a%5B0%5D%2F"),
        ("page#one#two", "https://api.example.com/v1/page#one%23two"),
    ])
    func aPathIsPercentEncodedBeforeURLParsesIt(_ path: String, _ expected: String) throws {
        // When the URL text is made for the path
        let text = RequestURL.string(baseURL: Self.base, path: path, queryItems: [])
        // Then it is ASCII, encoded as expected, and URL(string:) takes it as it is
        #expect(text.utf8.allSatisfy { $0 < 0x80 })
        #expect(text == expected)
        #expect(try #require(URL(string: text)).absoluteString == expected)
    }

    @Test func anEndpointWithAKoreanPathMakesItsRequest() throws {
        let endpoint = Endpoint<Data>(baseURL: Self.base, path: "movies/기생충")
        let request = try endpoint.makeRequest()
        #expect(
            request.url?.absoluteString == "https://api.example.com/v1/movies/%EA%B8%B0%EC%83%9D%EC%B6%A9")
    }
}
