import Foundation
import NetworkLayer
import Testing

/// A decoding failure names the place in the JSON as the JSON spells it, whatever key strategy the
/// decoder used, and reads as one sentence.
@Suite("NetworkError.decoding: where the JSON did not fit")
struct DecodingFailureTests {
    struct Owner: Decodable, Sendable { let avatarUrl: String }
    struct Repo: Decodable, Sendable {
        let fullName: String
        let stargazersCount: Int
        let owner: Owner
    }
    struct Page: Decodable, Sendable { let items: [Repo] }

    let group: EndpointGroup = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return EndpointGroup(baseURL: exampleURL, decoder: decoder)
    }()

    func failure(_ json: String) async -> NetworkError.DecodingFailure? {
        let provider = NetworkProvider(session: .json(json))
        let endpoint: Endpoint<Page> = group.get("search")
        let thrown = await error { try await provider.send(endpoint) }
        guard case .decoding(let failure) = thrown as? NetworkError else {
            Issue.record("expected a decoding failure, got \(String(describing: thrown))")
            return nil
        }
        return failure
    }

    @Test func aMismatchUnderSnakeCaseKeysIsNamedByTheJSONKey() async {
        // Given a snake_case body whose second item's star count is a string
        let items =
            #"{"full_name":"a/b","stargazers_count":1,"owner":{"avatar_url":"x"}},"#
            + #"{"full_name":"c/d","stargazers_count":"many","owner":{"avatar_url":"y"}}"#
        // When
        let found = await failure(#"{"items":[\#(items)]}"#)
        // Then the path is the JSON's, not the Swift property's
        #expect(found?.codingPath == "items[1].stargazers_count")
    }

    @Test func aMissingNestedKeyUnderSnakeCaseIsNamedByTheJSONKey() async {
        // Given a body whose owner has no avatar
        let found = await failure(
            #"{"items":[{"full_name":"a/b","stargazers_count":1,"owner":{"login":"a"}}]}"#)
        // Then the key looked for is named as the JSON would spell it
        #expect(found?.codingPath == "items[0].owner.avatar_url")
    }

    @Test func aMissingKeyOfAPlainDecoderIsNamedAsTheSwiftPropertyItLooksFor() async throws {
        // Given a decoder without a key strategy, and a body whose other keys happen to have underscores
        struct Profile: Decodable, Sendable { let userName: String }
        let provider = NetworkProvider(session: .json(#"{"created_at":"today","_id":1}"#))
        let thrown = await error(of: {
            try await provider.send(Endpoint<Profile>(baseURL: exampleURL, path: "me"))
        })
        // Then the path names the key the decoder looked for, as the body must spell it
        let failure = try #require(
            (thrown as? NetworkError)?.decodingFailure,
            "expected a decoding failure, got \(String(describing: thrown))")
        #expect(failure.codingPath == "userName")
    }

    @Test func theDescriptionHasOnePeriodBeforeTheBody() async {
        let found = await failure(#"{"items":[{"full_name":"a/b","stargazers_count":"many","owner":{}}]}"#)
        let text = found.map { "\(NetworkError.decoding($0))" } ?? ""
        #expect(text.contains(". Body starts: "))
        #expect(!text.contains(".. Body starts"), "\(text)")
    }
}
