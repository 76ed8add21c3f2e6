import AssemblyLine
import Foundation
import Testing

@Suite struct LedgerUTCDateTimeTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z", "19700101T000000Z"),
        (1_796_072_701.25, "2026-11-30T21:05:01.250Z", "20261130T210501Z"),
        (951_782_400.0, "2000-02-29T00:00:00.000Z", "20000229T000000Z"),
        (-1.0, "1969-12-31T23:59:59.000Z", "19691231T235959Z"),
        (4_107_542_399.999, "2100-02-28T23:59:59.999Z", "21000228T235959Z"),
        (-62_135_596_800.0, "0001-01-01T00:00:00.000Z", "00010101T000000Z"),
    ])
    func formatsKnownInstants(seconds: Double, iso: String, compact: String) throws {
        let time = UTCDateTime(Date(timeIntervalSince1970: seconds))
        #expect(time.iso8601Text == iso)
        #expect(time.compactText == compact)
        let parsed = try #require(UTCDateTime(iso8601Text: iso))
        #expect(parsed == time)
        #expect(parsed.date.timeIntervalSince1970 == seconds)
        #expect(UTCDateTime(compactText: compact)?.second == time.second)
    }

    @Test func roundTripsEveryWeekOfTenCenturies() {
        var day = -500 * 365
        while day < 500 * 365 {
            let date = Date(timeIntervalSince1970: Double(day) * 86_400 + 45_296.789)
            let time = UTCDateTime(date)
            #expect(UTCDateTime(iso8601Text: time.iso8601Text)?.date == time.date)
            #expect(abs(time.date.timeIntervalSince(date)) < 0.0005)
            day += 7
        }
    }

    @Test(arguments: ["2026-02-29T00:00:00.000Z", "2026-11-30T21:05:01.25Z", "2026-11-30 21:05:01.250Z",
                      "2026-11-30T21:05:01.250", "2026-13-01T00:00:00.000Z", "2026-11-30T21:05:01.250+00:00"])
    func refusesOtherForms(text: String) {
        #expect(UTCDateTime(iso8601Text: text) == nil)
    }

    @Test func ordersByInstant() throws {
        let earlier = try #require(UTCDateTime(year: 2026, month: 11, day: 30, hour: 21, minute: 5, second: 1,
                                               millisecond: 999))
        let later = try #require(UTCDateTime(year: 2026, month: 11, day: 30, hour: 21, minute: 5, second: 2))
        #expect(earlier < later)
        #expect(!(later < earlier))
    }
}
