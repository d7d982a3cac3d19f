import BoxOffice
import Foundation
import Testing

@Suite("Day")
struct DayTests {
    @Test func bothKobisFormsParse() throws {
        #expect(try Day(dashed: "2026-11-21") == Day(compact: "20261121"))
        #expect(try Day(compact: "20261121").dashed == "2026-11-21")
        #expect(try Day(dashed: "2026-11-21").compact == "20261121")
    }

    @Test(arguments: ["2026-02-30", "2026-13-01", "2026-00-10", "2025-02-29", "2026-04-31"])
    func impossibleDatesAreRejected(text: String) {
        #expect(throws: DayError.impossible(text)) { try Day(dashed: text) }
    }

    @Test(arguments: [
        "2026-1-1", "20261121", "yesterday", "2026/11/21", "", "2026-11-21T00:00", "+202-01-01", "2026-+1-01",
        "2026-01-+1", "-202-01-01", "2026-١١-01",
    ])
    func malformedDatesAreRejected(text: String) {
        #expect(throws: DayError.self) { try Day(dashed: text) }
    }

    @Test(arguments: ["+0261120", "-0261120", "2026112١", "2026 112"])
    func compactDatesOfAnythingButDigitsAreRejected(text: String) {
        #expect(throws: DayError.self) { try Day(compact: text) }
    }

    @Test func leapDaysExistOnlyInLeapYears() throws {
        #expect(try Day(dashed: "2024-02-29").next == day("2024-03-01"))
        #expect(try Day(dashed: "2000-02-29").previous == day("2000-02-28"))
        #expect(throws: DayError.self) { try Day(dashed: "1900-02-29") }
    }

    @Test func previousAndNextCrossMonthAndYearBoundaries() {
        #expect(day("2026-01-01").previous == day("2025-12-31"))
        #expect(day("2026-12-31").next == day("2027-01-01"))
        #expect(day("2026-03-01").previous == day("2026-02-28"))
    }

    @Test func theDayInKoreaIsNineHoursAheadOfUTC() {
        // 2026-11-21 14:59:59 UTC is 23:59:59 in Seoul; one second later it is the 22nd there
        let almostMidnight = Date(timeIntervalSince1970: 1_795_273_199)
        #expect(Day.inKorea(at: almostMidnight) == day("2026-11-21"))
        #expect(Day.inKorea(at: almostMidnight.addingTimeInterval(1)) == day("2026-11-22"))
    }
}

@Suite("KOBIS mapping")
struct MappingTests {
    func row(audience: String = "1000", openDate: String = "2026-11-01", title: String = "별빛 우체국 ") -> String
    {
        """
        {"rnum":"1","rank":"1","rankInten":"-2","rankOldAndNew":"OLD","movieCd":"20261001","movieNm":"\(title)",
         "openDt":"\(openDate)","salesAmt":"10000","salesShare":"12.5","salesInten":"0","salesChange":"0",
         "salesAcc":"62772471900","audiCnt":"\(audience)","audiInten":"0","audiChange":"-15.3","audiAcc":"5000",
         "scrnCnt":"300","showCnt":"900"}
        """
    }

    func chart(_ row: String) throws -> DailyBoxOffice {
        let json =
            #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"20261121~20261121","dailyBoxOfficeList":[\#(row)]}}"#
        let response = try JSONDecoder().decode(KobisDailyBoxOfficeResponse.self, from: Data(json.utf8))
        return try DailyBoxOffice(day: day("2026-11-21"), response: response)
    }

    @Test func stringNumbersTrailingSpacesAndLargeSalesAreRead() throws {
        // When
        let entry = try chart(row()).entries[0]
        // Then
        #expect(entry.title == "별빛 우체국")
        #expect(entry.rankChange == -2)
        #expect(entry.salesAccumulated == 62_772_471_900)
        #expect(entry.salesShare == 12.5)
        #expect(entry.openDate == day("2026-11-01"))
    }

    @Test func aBlankOpenDateIsNil() throws {
        #expect(try chart(row(openDate: " ")).entries[0].openDate == nil)
    }

    @Test func aNumberThatIsNotANumberNamesTheFieldAndTheRow() {
        // When
        let thrown = #expect(throws: KobisMappingError.self) { try chart(row(audience: "많음")) }
        // Then
        #expect(thrown == KobisMappingError(field: "audiCnt", value: "많음", location: "row 1 of 2026-11-21"))
        #expect(
            thrown?.description
                == "KOBIS sent audiCnt \"많음\" in row 1 of 2026-11-21, which is not a valid value")
    }

    @Test func anImpossibleOpenDateIsAMappingError() {
        #expect(throws: KobisMappingError.self) { try chart(row(openDate: "2026-02-30")) }
    }
}
