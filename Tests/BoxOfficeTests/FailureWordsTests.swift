import Foundation
import NetworkLayer
import Testing

@testable import BoxOffice

/// Failures are named for what happened: the API's own refusal, a server that failed, or no connection.
@Suite("Failures in words that say what happened")
struct FailureWordsTests {
    @Test func aKobis500IsAFailureNamedByItsStatusWithoutThePageItSent() async throws {
        // Given a KOBIS that answers 500 with an HTML page
        let page = "<html>\n<body><h1>Internal Server Error</h1></body>\n</html>"
        let repository = KobisBoxOfficeRepository(
            api: KobisAPI(key: "k"), provider: NetworkProvider(session: .status(500, body: Data(page.utf8))))
        // When a chart is asked for
        let thrown = await #expect(throws: BoxOfficeError.self) { () async throws in
            try await repository.dailyBoxOffice(for: Day(year: 2024, month: 1, day: 1))
        }
        // Then it is a failure of KOBIS, not a refusal, and shows no HTML
        guard case .failed(let message)? = thrown else {
            Issue.record("expected a failure, got \(String(describing: thrown))")
            return
        }
        #expect(message.hasPrefix("HTTP 500 from "))
        #expect(!message.contains("<html>"))
    }

    @Test func aKeptChartShownAfterAServerFailureSaysKobisFailedNotThatItRefused() throws {
        // Given a server failure as the data layer names it
        let reason = CachingKobisRepository.fallbackReason(
            BoxOfficeError.failed("HTTP 503 from https://kobis"))
        // Then the note says KOBIS failed
        #expect(reason == "KOBIS failed: HTTP 503 from https://kobis")
    }
}
