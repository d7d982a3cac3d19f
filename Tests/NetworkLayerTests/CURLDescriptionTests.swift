import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("cURL descriptions, redacted")
struct CURLDescriptionTests {
    let group = EndpointGroup(
        baseURL: URL(string: "https://api.example.com/v1")!, headers: ["Authorization": "Bearer s3cret"],
        queryItems: [URLQueryItem(name: "key", value: "k3y")])

    @Test func aPOSTRendersItsMethodHeadersAndBodyWithSecretsHidden() {
        // Given
        struct Login: Encodable, Sendable {
            let user: String
            let password: String
        }
        let login = Login(user: "kim", password: "hunter2")
        let endpoint: Endpoint<EmptyResponse> = group.post("login", json: login)
        // When
        let command = endpoint.cURLDescription()
        // Then
        #expect(
            command == """
                curl -X POST 'https://api.example.com/v1/login?key=REDACTED' \\
                  -H 'Authorization: REDACTED' \\
                  -H 'Content-Type: application/json' \\
                  --data-raw '{"password":"REDACTED","user":"kim"}'
                """)
        #expect(!command.contains("s3cret") && !command.contains("k3y") && !command.contains("hunter2"))
    }

    @Test func aGETHasNoMethodFlagAndNoBody() {
        let endpoint: Endpoint<Data> = group.get("movies", query: ["day": "1"])
        #expect(
            endpoint.cURLDescription() == """
                curl 'https://api.example.com/v1/movies?key=REDACTED&day=1' \\
                  -H 'Authorization: REDACTED'
                """)
    }

    @Test func formFieldsThatLookSecretAreHidden() {
        var request = URLRequest(url: URL(string: "https://example.com/token")!)
        request.httpMethod = "POST"
        request.httpBody = Data("grant_type=password&client_secret=abc&password=p%40ss&user=kim".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        #expect(
            Redaction.cURL(request).hasSuffix(
                "--data-raw 'grant_type=password&client_secret=REDACTED&password=REDACTED&user=kim'"))
    }

    @Test func aFormFieldAfterAPrependedMarkIsStillHidden() {
        // Given a form whose field before the password ends in U+0601, a mark that joins the next
        // character (the `&`) into one grapheme (found by TransferParsingFuzzer)
        var request = URLRequest(url: URL(string: "https://example.com/token")!)
        request.httpMethod = "POST"
        request.httpBody = Data("note=x\u{0601}&password=hunter22".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        // When
        let command = Redaction.cURL(request)
        // Then
        #expect(!command.contains("hunter22"))
        #expect(command.contains("password=REDACTED"))
    }

    @Test func singleQuotesInAValueAreEscapedForTheShell() {
        var request = URLRequest(url: URL(string: "https://example.com/")!)
        request.setValue("it's", forHTTPHeaderField: "X-Note")
        #expect(Redaction.cURL(request).hasSuffix(#"-H 'X-Note: it'\''s'"#))
    }

    @Test func controlCharactersAreEscapedSoPrintingTheCommandCannotDriveATerminal() {
        // Given a body with an escape sequence and a newline
        var request = URLRequest(url: URL(string: "https://example.com/")!)
        request.httpMethod = "PUT"
        request.httpBody = Data("a\u{1B}[2Jb\nc'd\u{85}".utf8)
        // When
        let command = Redaction.cURL(request)
        // Then
        #expect(!command.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{85}" })
        #expect(command.hasSuffix(#"--data-raw $'a\x1b[2Jb\nc\'d\u0085'"#))
    }

    @Test func aBinaryBodyIsNotShown() {
        var request = URLRequest(url: URL(string: "https://example.com/")!)
        request.httpMethod = "POST"
        request.httpBody = Data([0xFF, 0xFE, 0x00])
        #expect(Redaction.cURL(request).hasSuffix("--data-binary @body  # 3 bytes, not shown"))
    }
}
