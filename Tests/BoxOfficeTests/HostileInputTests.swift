import Foundation
import Testing

@testable import BoxOffice

@Suite("The app core: hostile configuration and poster bodies")
struct HostileInputTests {
    @Test func keysLoseSurroundingSpacesAndLineBreaks() throws {
        // Given keys as `$(cat key.txt)` and a careless paste give them
        let environment = try AppEnvironment(
            variables: ["KOBIS_API_KEY": " abcd\n", "KAKAO_REST_API_KEY": "\tdefg\r\n"], forcesOffline: false)
        // Then
        #expect(environment.kobisKey == "abcd")
        #expect(environment.kakaoKey == "defg")
    }

    @Test func aKeyWithALineBreakInsideIsRefusedAndNotShown() {
        // When
        let thrown = #expect(throws: ConfigurationError.self) {
            try AppEnvironment(variables: ["KAKAO_REST_API_KEY": "abc\nsecret"], forcesOffline: false)
        }
        // Then
        #expect(thrown?.variable == "KAKAO_REST_API_KEY")
        #expect(thrown?.description.contains("secret") == false)
    }

    @Test(arguments: ["0", "-1", "nan", "inf", "601", "soon"])
    func anUnusableTimeoutIsAConfigurationError(value: String) {
        #expect(throws: ConfigurationError.self) {
            try AppEnvironment(variables: ["BOXOFFICE_TIMEOUT_SECONDS": value], forcesOffline: false)
        }
    }

    @Test(arguments: [
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], [0xFF, 0xD8, 0xFF, 0xE0],
        Array("GIF89a..".utf8), Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8),
    ])
    func imagesOfTheFourFormatsAreAccepted(bytes: [UInt8]) throws {
        try PosterError.checkImage(Data(bytes), limit: 1000)
    }

    @Test func anHTMLPageIsNotAnImage() {
        #expect(throws: PosterError.notAnImage) {
            try PosterError.checkImage(Data("<html><body>login</body></html>".utf8), limit: 1000)
        }
    }

    @Test func aPosterIsDownloadedUnderTheImageLimitWhileItArrives() throws {
        // Given an image URL with a trailing slash and a query, as a search result may name one
        let url = try #require(URL(string: "https://img.example.com/poster/?w=300"))
        // When
        let endpoint = KakaoAPI().image(at: url)
        // Then the provider stops the body at 10 MB, and the URL is the one found
        #expect(endpoint.maximumResponseSize == PosterProvider.maximumImageBytes)
        #expect(try endpoint.makeRequest().url == url)
    }

    @Test func anImageOverTheLimitIsRefused() {
        let big = Data([0xFF, 0xD8, 0xFF]) + Data(count: 2000)
        #expect(throws: PosterError.tooLarge(bytes: 2003, limit: 1000)) {
            try PosterError.checkImage(big, limit: 1000)
        }
    }
}
