import BoxOffice
import CacheKit
import Foundation
import TestSupport
import Testing

/// KOBIS's past charts and films' details kept on disk as `Codable` values: a second look needs no
/// network and says where it came from.
@Suite("The offline cache of charts and details")
struct OfflineCacheTests {
    /// An origin that counts its calls and answers a one-film chart titled `title`.
    class CountingOrigin: BoxOfficeRepository, MovieRepository, @unchecked Sendable {
        // @unchecked Sendable: `calls` is a Recorder (locked); `title` and `failure` are set before use.
        let calls = Recorder<String>()
        var title = "검은 바다"
        var failure: BoxOfficeError?

        func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
            calls.append("chart \(day)")
            if let failure { throw failure }
            return DailyBoxOffice(
                day: day,
                entries: [
                    DailyBoxOfficeEntry(
                        rank: 1, rankChange: 0, isNew: false, movieCode: "20261001", title: title,
                        openDate: nil,
                        audienceCount: 1, audienceAccumulated: 2, salesAmount: 3, salesAccumulated: 4,
                        salesShare: 5, screenCount: 6, showCount: 7)
                ], omittedEntries: 2)
        }

        func movieDetails(code: String) async throws -> MovieDetails {
            calls.append("movie \(code)")
            if let failure { throw failure }
            return details(code, title)
        }
    }

    /// An origin whose chart has rows the first time and none after.
    final class EmptyAfterFirst: CountingOrigin, @unchecked Sendable {
        override func dailyBoxOffice(for day: Day) async throws -> DailyBoxOffice {
            let chart = try await super.dailyBoxOffice(for: day)
            return calls.values.count == 1 ? chart : DailyBoxOffice(day: day, entries: [], omittedEntries: 0)
        }
    }

    /// A clock the test moves.
    final class TestTime: @unchecked Sendable {
        // @unchecked Sendable: `now` is only read and written under `lock`.
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 in Korea
        var now: Date {
            lock.withLock { current }
        }
        func advance(seconds: TimeInterval) { lock.withLock { current += seconds } }
    }

    let folder = TemporaryFolder()
    let time = TestTime()

    func repository(_ origin: CountingOrigin, scope: String = "https://kobis.example", secrets: [String] = [])
        -> CachingKobisRepository
    {
        let time = time
        return CachingKobisRepository(
            origin: origin, directory: folder.url, scope: scope, clock: CacheClock { time.now },
            now: { time.now }, secrets: secrets)
    }

    var today: Day { Day.inKorea(at: time.now) }

    @Test func aPastChartIsFetchedOnceAndReadFromDiskAfterARestart() async throws {
        // Given a chart of a week ago, fetched once
        let origin = CountingOrigin()
        let past = today.adding(days: -7)
        let first = try await repository(origin).dailyBoxOffice(for: past)
        // When the app starts again, later
        time.advance(seconds: 3 * 86_400)
        let second = try await repository(origin).dailyBoxOffice(for: past)
        // Then the second came from the cache, saved when the first was fetched, rows and counts intact
        #expect(origin.calls.values == ["chart \(past)"])
        #expect(first.origin == .network)
        #expect(second.origin == .cache(savedAt: time.now.addingTimeInterval(-3 * 86_400)))
        #expect(second.entries == first.entries)
        #expect(second.omittedEntries == 2)
    }

    @Test func todaysChartIsNeverCached() async throws {
        let origin = CountingOrigin()
        _ = try await repository(origin).dailyBoxOffice(for: today)
        let again = try await repository(origin).dailyBoxOffice(for: today)
        #expect(origin.calls.values.count == 2)
        #expect(again.origin == .network)
    }

    @Test func yesterdaysChartIsFetchedAgainAfterAnHour() async throws {
        // Given yesterday's chart, fetched once
        let origin = CountingOrigin()
        let yesterday = today.previous
        _ = try await repository(origin).dailyBoxOffice(for: yesterday)
        // When looked at again within the hour, then after it
        time.advance(seconds: 30 * 60)
        let withinTheHour = try await repository(origin).dailyBoxOffice(for: yesterday)
        time.advance(seconds: 31 * 60)
        let afterTheHour = try await repository(origin).dailyBoxOffice(for: yesterday)
        // Then
        #expect(withinTheHour.origin != .network)
        #expect(afterTheHour.origin == .network)
        #expect(origin.calls.values.count == 2)
    }

    @Test func aChartSavedWhileTheClockRanAheadIsAskedForAgainOnceTheClockIsRight() async throws {
        // Given yesterday's chart, fetched while the clock ran three days ahead (so it looked final)
        let origin = CountingOrigin()
        let yesterday = today.previous
        time.advance(seconds: 3 * 86_400)
        _ = try await repository(origin).dailyBoxOffice(for: yesterday)
        // When the clock is right again and the chart is asked for
        time.advance(seconds: -3 * 86_400)
        let again = try await repository(origin).dailyBoxOffice(for: yesterday)
        // Then KOBIS is asked again, and the answer replaces what was kept
        #expect(origin.calls.values == ["chart \(yesterday)", "chart \(yesterday)"])
        #expect(again.origin == .network)
    }

    @Test func aValueSavedInTheFutureIsNotShownWhenKobisCannotBeReached() async throws {
        // Given a film's details saved while the clock ran ahead, and KOBIS down once the clock is right
        let origin = CountingOrigin()
        time.advance(seconds: 3 * 86_400)
        _ = try await repository(origin).movieDetails(code: "20261001")
        time.advance(seconds: -3 * 86_400)
        origin.failure = .unreachable("no connection")
        // When the details are asked for, Then the failure is told, not a save time in the future
        await #expect(throws: BoxOfficeError.unreachable("no connection")) {
            try await repository(origin).movieDetails(code: "20261001")
        }
    }

    @Test func anEmptyChartFromKobisDoesNotReplaceAKeptChartWithRows() async throws {
        // Given yesterday's chart with rows, kept and now past its hour, and a KOBIS that answers empty
        let origin = EmptyAfterFirst()
        let yesterday = today.previous
        _ = try await repository(origin).dailyBoxOffice(for: yesterday)
        time.advance(seconds: 2 * 3_600)
        let empty = try await repository(origin).dailyBoxOffice(for: yesterday)
        // When KOBIS then cannot be reached
        origin.failure = .unreachable("no connection")
        let shown = try await repository(origin).dailyBoxOffice(for: yesterday)
        // Then the empty answer was shown once, and the kept chart with rows stands in for the failure
        #expect(empty.entries.isEmpty)
        #expect(shown.entries.count == 1)
    }

    @Test func aRevokedKeyIsNamedWhenAnOlderChartIsShownInstead() async throws {
        // Given yesterday's chart, fetched once, and now past its hour of freshness
        let origin = CountingOrigin()
        let yesterday = today.previous
        _ = try await repository(origin).dailyBoxOffice(for: yesterday)
        time.advance(seconds: 2 * 3_600)
        // When KOBIS now refuses the key
        origin.failure = .refused("KOBIS error 320010: 유효하지않은 키값입니다.")
        let shown = try await repository(origin).dailyBoxOffice(for: yesterday)
        // Then KOBIS was asked, the kept chart is shown, and the note names the refusal and its code
        #expect(origin.calls.values.count == 2)
        #expect(shown.entries.first?.title == "검은 바다")
        let note = try #require(ChartNotes.origin(shown.origin, of: "the chart for \(yesterday)"))
        #expect(note.contains("came from the cache"))
        #expect(note.contains("KOBIS error 320010"))
    }

    @Test func aFilmsDetailsPastTheirFreshnessAnswerWhenKobisCannotBeReached() async throws {
        // Given a film's details, fetched 31 days ago (fresh for 30)
        let origin = CountingOrigin()
        _ = try await repository(origin).movieDetails(code: "20261001")
        time.advance(seconds: 31 * 86_400)
        // When KOBIS cannot be reached
        origin.failure = .unreachable("Network failure (URLError -1009)")
        let shown = try await repository(origin).movieDetails(code: "20261001")
        // Then the kept details answer, saying why
        guard case .cacheAfterFailure(_, let failure) = shown.origin else {
            Issue.record("expected details from the cache after a failure, got \(shown.origin)")
            return
        }
        #expect(failure.contains("-1009"))
    }

    @Test func aValuePastItsFallbackTimeIsGone() async throws {
        // Given yesterday's chart, fetched 40 days ago (fresh for an hour, kept 30 days longer)
        let origin = CountingOrigin()
        let yesterday = today.previous
        _ = try await repository(origin).dailyBoxOffice(for: yesterday)
        time.advance(seconds: 40 * 86_400)
        // When KOBIS refuses the key
        origin.failure = .refused("KOBIS error 320010: 유효하지않은 키값입니다.")
        // Then the refusal stands
        await #expect(throws: BoxOfficeError.self) {
            try await repository(origin).dailyBoxOffice(for: yesterday)
        }
    }

    @Test func anUnreadableAnswerIsNotCoveredByAnOlderChart() async throws {
        // Given yesterday's chart, past its freshness
        let origin = CountingOrigin()
        let yesterday = today.previous
        _ = try await repository(origin).dailyBoxOffice(for: yesterday)
        time.advance(seconds: 2 * 3_600)
        // When KOBIS answers in a form the app cannot read
        origin.failure = .unreadable("not the documented JSON")
        // Then that error stands: it is not one a kept chart may stand in for
        await #expect(throws: BoxOfficeError.self) {
            try await repository(origin).dailyBoxOffice(for: yesterday)
        }
    }

    @Test func aRefreshGoesPastTheCacheAndReplacesWhatItHeld() async throws {
        // Given a past chart in the cache
        let origin = CountingOrigin()
        let past = today.adding(days: -7)
        _ = try await repository(origin).dailyBoxOffice(for: past)
        // When the service corrects a title and the user refreshes
        origin.title = "검은 바다 (corrected)"
        let refreshed = try await repository(origin).refreshedDailyBoxOffice(for: past)
        let afterwards = try await repository(origin).dailyBoxOffice(for: past)
        // Then the refresh asked the service, and the cache now holds its answer
        #expect(refreshed.origin == .network)
        #expect(refreshed.entries.first?.title == "검은 바다 (corrected)")
        #expect(afterwards.origin != .network)
        #expect(afterwards.entries.first?.title == "검은 바다 (corrected)")
        #expect(origin.calls.values.count == 2)
    }

    @Test func aFilmsDetailsAreReadFromDiskAfterARestart() async throws {
        let origin = CountingOrigin()
        _ = try await repository(origin).movieDetails(code: "20261001")
        let again = try await repository(origin).movieDetails(code: "20261001")
        #expect(origin.calls.values == ["movie 20261001"])
        #expect(again.title == "검은 바다")
        #expect(again.origin == .cache(savedAt: time.now))
    }

    @Test func anotherServersValuesAreNotRead() async throws {
        let origin = CountingOrigin()
        let past = today.adding(days: -7)
        _ = try await repository(origin, scope: "https://kobis.example").dailyBoxOffice(for: past)
        let other = try await repository(origin, scope: "http://127.0.0.1:8080/kobis").dailyBoxOffice(
            for: past)
        #expect(other.origin == .network)
        #expect(origin.calls.values.count == 2)
    }

    @Test func aValueCarryingAKeyIsReturnedButNeverWritten() async throws {
        // Given a server echoing the key into a title
        let origin = CountingOrigin()
        origin.title = "영화 SECRETKEY42"
        let past = today.adding(days: -7)
        // When the chart and the details are fetched twice
        for _ in 0..<2 {
            let chart = try await repository(origin, secrets: ["SECRETKEY42"]).dailyBoxOffice(for: past)
            #expect(chart.entries.first?.title == "영화 SECRETKEY42")
            _ = try await repository(origin, secrets: ["SECRETKEY42"]).movieDetails(code: "20261001")
        }
        // Then each was fetched each time, and no file holds the key
        #expect(origin.calls.values.count == 4)
        let files =
            FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        for file in files {
            let bytes = (try? Data(contentsOf: file)) ?? Data()
            #expect(bytes.range(of: Data("SECRETKEY42".utf8)) == nil, "\(file.lastPathComponent)")
        }
    }

    @Test(arguments: ["영화 SECRETKEY42X: 속편", "영화 secretkey42xyz"])
    func aValueCarryingPartOfAKeyOrTheKeyInAnotherCaseIsNotWritten(title: String) async throws {
        // Given a server echoing eight characters of the key mid-title, or the key in small letters
        let origin = CountingOrigin()
        origin.title = title
        let past = today.adding(days: -7)
        // When the chart is fetched twice
        for _ in 0..<2 {
            _ = try await repository(origin, secrets: ["SECRETKEY42XYZ"]).dailyBoxOffice(for: past)
        }
        // Then it was fetched each time: it was never kept
        #expect(origin.calls.values.count == 2)
    }

    @Test func aFilmCodeCarryingAKeyIsRefusedBeforeAnyLookup() async throws {
        // Given a code that carries part of the key
        let origin = CountingOrigin()
        // When
        await #expect(throws: BoxOfficeError.self) {
            _ = try await repository(origin, secrets: ["SECRETKEY42XYZ"]).movieDetails(code: "SECRETKEY42")
        }
        // Then the origin was never asked
        #expect(origin.calls.values.isEmpty)
    }

    @Test func aFailureIsNotCached() async throws {
        let origin = CountingOrigin()
        origin.failure = .unreachable("down")
        let past = today.adding(days: -7)
        await #expect(throws: BoxOfficeError.self) { try await repository(origin).dailyBoxOffice(for: past) }
        origin.failure = nil
        let chart = try await repository(origin).dailyBoxOffice(for: past)
        #expect(chart.origin == .network)
        #expect(origin.calls.values.count == 2)
    }

    @Test func aFolderThatStopsTakingWritesWarnsOnceAndStillAnswers() async throws {
        // Given a repository whose folders worked when it was made, then stop taking files (as a disk
        // that fills up does: here a file takes each folder's place)
        let warnings = Recorder<String>()
        let origin = CountingOrigin()
        let repository = CachingKobisRepository(
            origin: origin, directory: folder.url, scope: "s", clock: CacheClock { [time] in time.now },
            now: { [time] in time.now }, warn: { warnings.append($0) })
        #expect(warnings.values.isEmpty)
        for name in ["charts", "movies"] {
            let path = folder.url.appendingPathComponent(name)
            try FileManager.default.removeItem(at: path)
            try Data("not a folder".utf8).write(to: path)
        }
        // When a past chart and two films' details are fetched, each of which would be kept
        let chart = try await repository.dailyBoxOffice(for: today.adding(days: -7))
        _ = try await repository.movieDetails(code: "20261001")
        _ = try await repository.movieDetails(code: "20261002")
        // Then each is answered, and one warning says the cache could not keep them
        #expect(chart.entries.count == 1)
        #expect(warnings.values.count == 1, "\(warnings.values)")
        #expect(warnings.values.first?.contains("could not keep") == true)
    }

    @Test func anUnusableFolderWarnsOnceAndStillAnswers() async throws {
        // Given a file where the cache folder should be
        try Data("a file".utf8).write(to: folder.url)
        let warnings = Recorder<String>()
        let origin = CountingOrigin()
        let repository = CachingKobisRepository(
            origin: origin, directory: folder.url, scope: "s", warn: { warnings.append($0) })
        // When
        let chart = try await repository.dailyBoxOffice(for: today.adding(days: -7))
        // Then
        #expect(chart.entries.count == 1)
        #expect(warnings.values.count == 1)
        #expect(warnings.values.first?.contains("data cache folder cannot be used") == true)
    }
}
