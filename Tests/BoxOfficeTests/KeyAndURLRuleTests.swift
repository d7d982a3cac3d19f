import Foundation
import Testing

@testable import BoxOffice

/// One rule for what a key may contain, and for what a base URL may be, checked before anything is sent.
@Suite("The app core: keys and base URLs")
struct KeyAndURLRuleTests {
    @Test func anIssuedKeyIsAccepted() throws {
        // Given a key shaped like the ones KOBIS and Kakao issue: 32 hexadecimal digits
        let key = "0123456789abcdef0123456789ABCDEF"
        // When / Then
        #expect(try AppEnvironment(variables: ["KOBIS_API_KEY": key], forcesOffline: false).kobisKey == key)
    }

    @Test(arguments: [
        ("a C1 control", "abc\u{85}def"), ("Hangul", "abc키def"), ("a zero-width space", "abc\u{200B}def"),
        ("a non-breaking space", "abc\u{A0}def"), ("a bidi override", "abc\u{202E}def"),
        ("a key longer than 256 characters", String(repeating: "k", count: 257)),
        ("a key shorter than 4 characters, too short to hide in what is printed", "abc"),
    ])
    func aKeyOutsidePrintableASCIIIsRefusedWithoutShowingIt(what: String, key: String) {
        // When
        let thrown = #expect(throws: ConfigurationError.self, "\(what)") {
            try AppEnvironment(variables: ["KOBIS_API_KEY": key], forcesOffline: false)
        }
        // Then the message names the variable and the rule, never the value
        #expect(thrown?.variable == "KOBIS_API_KEY")
        #expect(thrown?.description.contains("printable ASCII") == true)
        #expect(thrown?.description.contains("abc") == false)
    }

    @Test func theRuleIsTheSameForBothKeys() {
        #expect(throws: ConfigurationError.self) {
            try AppEnvironment(variables: ["KAKAO_REST_API_KEY": "ab\u{200B}c"], forcesOffline: false)
        }
    }

    @Test(arguments: [
        "https://example.com/api?x=1", "https://example.com/api#part", "https://user:pass@example.com/api",
        "https://user@example.com", "ftp://example.com", "https://", "example.com",
    ])
    func aBaseURLWithAQueryFragmentOrUserIsRefused(text: String) {
        // When
        let thrown = #expect(throws: ConfigurationError.self) {
            try AppEnvironment(variables: ["KOBIS_BASE_URL": text], forcesOffline: false)
        }
        // Then
        #expect(thrown?.variable == "KOBIS_BASE_URL")
        #expect(thrown?.description.contains("without a query, fragment or user name") == true)
    }

    @Test func aRefusedBaseURLIsShownWithoutItsPasswordOrQuery() {
        let thrown = #expect(throws: ConfigurationError.self) {
            try AppEnvironment(
                variables: ["KOBIS_BASE_URL": "https://USER42:PASSWORD42@kobis.example/api?key=KEY42#FRAG42"],
                forcesOffline: false)
        }
        let message = thrown?.description ?? ""
        #expect(message.contains("kobis.example/api"))
        for secret in ["PASSWORD42", "KEY42", "USER42", "FRAG42"] {
            #expect(!message.contains(secret), "\(secret)")
        }
    }

    @Test(arguments: [
        "http:admin:hunter2@kobis.example/", "http:/admin:hunter2@kobis.example/",
        "https:hunter2@kobis.example",
    ])
    func aRefusedBaseURLWithoutSlashesIsShownWithoutItsPassword(text: String) {
        let thrown = #expect(throws: ConfigurationError.self) {
            try AppEnvironment(variables: ["KOBIS_BASE_URL": text], forcesOffline: false)
        }
        #expect(thrown?.description.contains("hunter2") == false, "\(thrown?.description ?? "")")
    }

    @Test func aBaseURLWithAPathAndPortIsAccepted() throws {
        let environment = try AppEnvironment(
            variables: ["KAKAO_BASE_URL": "http://127.0.0.1:8080/kakao"], forcesOffline: false)
        #expect(environment.kakaoBaseURL.absoluteString == "http://127.0.0.1:8080/kakao")
    }

    #if canImport(FoundationNetworking)
        @Test func anIPv6LiteralIsRefusedOnLinuxWithAClearMessage() {
            // FoundationNetworking fails `http://[::1]:…` with URLError -1000 before connecting.
            let thrown = #expect(throws: ConfigurationError.self) {
                try AppEnvironment(
                    variables: ["KOBIS_BASE_URL": "http://[::1]:8080/kobis"], forcesOffline: false)
            }
            #expect(thrown?.description.contains("IPv6 literal") == true)
            #expect(thrown?.description.contains("localhost") == true)
        }
    #else
        @Test func anIPv6LiteralIsAcceptedWhereURLSessionReachesIt() throws {
            let environment = try AppEnvironment(
                variables: ["KOBIS_BASE_URL": "http://[::1]:8080/kobis"], forcesOffline: false)
            #expect(environment.kobisBaseURL.host == "::1")
        }
    #endif
}
