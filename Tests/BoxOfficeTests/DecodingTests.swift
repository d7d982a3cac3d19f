import BoxOffice
import Foundation
import NetworkLayer
import Testing

@Suite(
    "Real KOBIS and Kakao responses decode",
    .enabled(if: RealFixtures.isPresent, "../shared/fixtures/real is absent: real-response tests skipped"))
struct RealResponseTests {
    @Test(arguments: RealFixtures.files(prefix: "kobis_daily"))
    func everyRealDailyResponseDecodesAndMaps(file: URL) throws {
        // Given
        let data = try Data(contentsOf: file)
        // When
        let response = try JSONDecoder().decode(KobisDailyBoxOfficeResponse.self, from: data)
        let range = response.boxOfficeResult.showRange.prefix(8)
        let chart = try DailyBoxOffice(day: try Day(compact: String(range)), response: response)
        // Then
        #expect(chart.entries.count == 10)
        #expect(chart.entries.map(\.rank) == Array(1...10))
        #expect(chart.entries.allSatisfy { $0.title == $0.title.trimmingCharacters(in: .whitespaces) })
    }

    @Test func anotherDaysChartIsRefusedNotTakenForTheDayAsked() throws {
        // Given a server answering the chart of 2024-01-01 with 2020's
        let json =
            #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"20200101~20200101","dailyBoxOfficeList":[]}}"#
        let response = try JSONDecoder().decode(KobisDailyBoxOfficeResponse.self, from: Data(json.utf8))
        // When it is mapped for the day asked, Then it is refused, naming what was sent
        #expect(
            throws: KobisMappingError(
                field: "showRange", value: "20200101~20200101", location: "the chart asked for 2024-01-01")
        ) {
            try DailyBoxOffice(day: day("2024-01-01"), response: response)
        }
    }

    @Test func aBlankOpenDateOfAReReleaseBecomesNil() throws {
        // Given the 2023-04-26 chart, whose tenth row has "openDt": " "
        let file = RealFixtures.directory.appendingPathComponent("kobis_daily_20230426_tasty.json")
        let response = try JSONDecoder().decode(
            KobisDailyBoxOfficeResponse.self, from: Data(contentsOf: file))
        // When
        let chart = try DailyBoxOffice(day: day("2023-04-26"), response: response)
        // Then
        #expect(chart.entries[9].openDate == nil)
        #expect(chart.entries[0].openDate != nil)
    }

    @Test(arguments: RealFixtures.files(prefix: "kobis_movieinfo"))
    func everyRealMovieInfoDecodesAndMaps(file: URL) throws {
        // When
        let response = try JSONDecoder().decode(KobisMovieInfoResponse.self, from: Data(contentsOf: file))
        let details = try MovieDetails(response: response)
        // Then
        #expect(!details.title.isEmpty)
        #expect(details.openDate != nil)
        #expect(details.runtimeMinutes != nil)
        #expect(!details.directors.isEmpty)
    }

    @Test(arguments: RealFixtures.files(prefix: "kobis_fault"))
    func everyRealFaultBecomesAKobisErrorThroughTheProvider(file: URL) async throws {
        // Given a fault sent with HTTP 200
        let body = try String(contentsOf: file, encoding: .utf8)
        let provider = NetworkProvider(session: .json(body))
        // When
        let thrown: (any Error)?
        do {
            _ = try await provider.send(KobisAPI(key: "k").dailyBoxOffice(for: day("2026-11-21")))
            thrown = nil
        } catch {
            thrown = error
        }
        // Then
        guard case .apiError(let underlying) = thrown as? NetworkError, let kobis = underlying as? KobisError
        else {
            Issue.record("expected a KOBIS error, got \(String(describing: thrown))")
            return
        }
        #expect(kobis.code.count == 6)
        #expect(kobis.description.hasPrefix("KOBIS error \(kobis.code): "))
    }

    @Test func theInvalidKeyFaultReadsAsOneClearLine() throws {
        // Given
        let file = RealFixtures.directory.appendingPathComponent("kobis_fault_320010.json")
        let body = try Data(contentsOf: file)
        // When
        let thrown = #expect(throws: KobisError.self) { try KobisErrorProbe.check(body) }
        // Then
        #expect(thrown?.description == "KOBIS error 320010: 유효하지않은 키값입니다.")
    }

    @Test(arguments: RealFixtures.files(prefix: "kakao_image"))
    func everyRealImageSearchDecodes(file: URL) throws {
        // When
        let response = try JSONDecoder().decode(KakaoImageSearchResponse.self, from: Data(contentsOf: file))
        // Then
        #expect(!response.documents.isEmpty)
        #expect(response.documents.allSatisfy { $0.date != nil })
        #expect(response.documents.allSatisfy { URL(string: $0.imageURL) != nil })
    }

    @Test func theRealKakaoErrorBodyDecodes() throws {
        // When
        let file = RealFixtures.directory.appendingPathComponent("kakao_error_MissingParameter.json")
        let body = try JSONDecoder().decode(KakaoErrorBody.self, from: Data(contentsOf: file))
        // Then
        #expect(body.errorType == "MissingParameter")
    }
}

/// Reaches KOBIS's fault check through the public endpoint's validate hook.
enum KobisErrorProbe {
    static func check(_ body: Data) throws {
        let endpoint = KobisAPI(key: "k").dailyBoxOffice(for: day("2026-11-21"))
        let response = try StubSession.makeResponse(for: try endpoint.makeRequest(), status: 200)
        try endpoint.validate?(body, response)
    }
}

@Suite("The demo dataset")
struct DemoDataTests {
    @Test func itHasAtLeastThreeDaysOfTenFilmsAndDetailsForEveryFilm() async throws {
        // Given
        let data = try demo
        let provider = NetworkProvider(session: data.session())
        let repository = KobisBoxOfficeRepository(api: KobisAPI(key: "demo"), provider: provider)
        // When
        var codes = Set<String>()
        for demoDay in data.days {
            let chart = try await repository.dailyBoxOffice(for: demoDay)
            #expect(chart.entries.count == 10)
            #expect(chart.entries.map(\.audienceCount) == chart.entries.map(\.audienceCount).sorted(by: >))
            codes.formUnion(chart.entries.map(\.movieCode))
        }
        // Then
        #expect(data.days.count >= 3)
        for code in codes {
            let details = try await repository.movieDetails(code: code)
            #expect(details.movieCode == code)
        }
    }

    @Test func aDayWithoutDemoDataIsAnEmptyChartLikeKobisAnswers() async throws {
        // Given
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "demo"), provider: NetworkProvider(session: try demo.session()))
        // When
        let chart = try await repository.dailyBoxOffice(for: day("2020-01-01"))
        // Then
        #expect(chart.entries.isEmpty)
    }

    @Test func demoPostersAreValidPNGFiles() {
        // When
        let png = PosterArtist.poster(seed: "20261001")
        // Then
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png == PosterArtist.poster(seed: "20261001"))
        #expect(png != PosterArtist.poster(seed: "20261002"))
    }
}
