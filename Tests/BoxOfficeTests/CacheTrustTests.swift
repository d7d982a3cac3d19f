import BoxOffice
import CacheKit
import Foundation
import TestSupport
import Testing

/// What the cache folder holds is trusted no more than what a server sends: the same caps apply, and
/// no symbolic link in it is followed.
@Suite("The offline cache: its files are input too")
struct CacheTrustTests {
    /// The JSON shape the repository keeps a chart in, written by the test as another program could.
    struct PlantedChart: Codable, DataConvertible, Sendable {
        let day: Day
        let entries: [DailyBoxOfficeEntry]
        let omittedEntries: Int
        let savedAt: Date
    }

    let folder = TemporaryFolder()

    func entry(rank: Int) -> DailyBoxOfficeEntry {
        DailyBoxOfficeEntry(
            rank: rank, rankChange: 0, isNew: false, movieCode: "\(20_000_000 + rank)", title: "Film \(rank)",
            openDate: nil, audienceCount: 1, audienceAccumulated: 1, salesAmount: 1, salesAccumulated: 1,
            salesShare: 1, screenCount: 1, showCount: 1)
    }

    @Test func aChartMadeWithThousandsOfEntriesKeepsTheBestTenAndCountsTheRest() {
        // Given 3,000 entries, best ranks last
        let entries = (1...3_000).reversed().map { entry(rank: $0) }
        // When
        let chart = DailyBoxOffice(day: day("2026-11-20"), entries: entries, omittedEntries: 5)
        // Then
        #expect(chart.entries.map(\.rank) == Array(1...10))
        #expect(chart.omittedEntries == 2_995)
    }

    @Test func aNegativeOrHugeOmittedCountIsClamped() {
        let none = DailyBoxOffice(day: day("2026-11-20"), entries: [], omittedEntries: -7)
        let huge = DailyBoxOffice(
            day: day("2026-11-20"), entries: (1...11).map { entry(rank: $0) }, omittedEntries: .max)
        #expect(none.omittedEntries == 0)
        #expect(huge.omittedEntries == .max)
    }

    @Test func aCachedChartOfThousandsOfRowsIsCutToTheTopTen() async throws {
        // Given a cache file holding a well-formed chart of 3,000 rows
        let past = day("2026-11-01")
        let disk = try DiskStorage<PlantedChart>(
            configuration: .init(directory: folder.url.appendingPathComponent("charts"), sweepInterval: nil))
        let planted = PlantedChart(
            day: past, entries: (1...3_000).map { entry(rank: $0) }, omittedEntries: 0,
            savedAt: Date(timeIntervalSince1970: 1_790_000_000))
        try await disk.store(
            planted, forKey: "https://kobis.example chart \(past.compact)", expiration: .never)
        let repository = CachingKobisRepository(
            origin: OfflineCacheTests.CountingOrigin(), directory: folder.url, scope: "https://kobis.example",
            now: { Date(timeIntervalSince1970: 1_795_000_000) })
        // When
        let chart = try await repository.dailyBoxOffice(for: past)
        // Then it came from the cache, with ten rows and the rest counted
        #expect(chart.origin != .network)
        #expect(chart.entries.count == 10)
        #expect(chart.omittedEntries == 2_990)
    }

    @Test func aSymbolicLinkInPlaceOfAFolderAboveTheCacheFoldersCreatesNothingWhereItPoints() async throws {
        // Given the repository's own folder replaced by a link to an empty folder elsewhere
        let elsewhere = TemporaryFolder()
        try FileManager.default.createDirectory(at: elsewhere.url, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let kobis = folder.url.appendingPathComponent("kobis")
        try FileManager.default.createSymbolicLink(at: kobis, withDestinationURL: elsewhere.url)
        let warnings = Recorder<String>()
        // When the repository is made over it
        let repository = CachingKobisRepository(
            origin: OfflineCacheTests.CountingOrigin(), directory: kobis, scope: "s",
            now: { Date(timeIntervalSince1970: 1_795_000_000) }, warn: { warnings.append($0) })
        _ = try await repository.dailyBoxOffice(for: day("2026-11-01"))
        // Then it warned, and made no folder where the link points
        #expect(warnings.values.first?.contains("symbolic link") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty)
    }

    @Test func aSymbolicLinkInPlaceOfACacheFolderIsNotFollowed() async throws {
        // Given the charts folder replaced by a link to a folder elsewhere
        let elsewhere = TemporaryFolder()
        try FileManager.default.createDirectory(at: elsewhere.url, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("charts"), withDestinationURL: elsewhere.url)
        let warnings = Recorder<String>()
        let repository = CachingKobisRepository(
            origin: OfflineCacheTests.CountingOrigin(), directory: folder.url, scope: "s",
            now: { Date(timeIntervalSince1970: 1_795_000_000) }, warn: { warnings.append($0) })
        // When a past chart is fetched, and would be kept
        _ = try await repository.dailyBoxOffice(for: day("2026-11-01"))
        // Then a warning names the link, and nothing, not even a probe, landed in its target
        #expect(warnings.values.count == 1)
        #expect(warnings.values.first?.contains("symbolic link") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty)
    }
}
