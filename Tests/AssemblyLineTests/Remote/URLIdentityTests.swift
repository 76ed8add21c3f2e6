import AssemblyLine
import Testing

/// A URL's identity from untrusted text: ETags of visible ASCII, sizes of digits, Last-Modified as an HTTP-date.
@Suite struct URLIdentityTests {
    @Test func httpDatesAreIMFFixdates() throws {
        #expect(UTCDateTime(httpDate: "Sun, 06 Nov 1994 08:49:37 GMT") == UTCDateTime(year: 1994, month: 11, day: 6, hour: 8, minute: 49, second: 37))
        #expect(UTCDateTime(httpDate: "Thu, 29 Feb 2024 23:59:59 GMT") == UTCDateTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59))
        for text in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
                     "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "2026-12-04T23:00:00Z", ""] {
            #expect(UTCDateTime(httpDate: text) == nil, "\(text)")
        }
    }

    @Test func sizesAreDigitsUpToAPebibyte() throws {
        #expect(try URLIdentity.size("0") == 0)
        #expect(try URLIdentity.size("1125899906842624") == 1 << 50)
        for text in ["", "-1", "+5", "1e3", " 5", "5, 5", "1125899906842625", "99999999999999999999", "0x10"] {
            #expect(throws: URLIdentity.Problem.size(text)) { try URLIdentity.size(text) }
        }
    }

    @Test func etagsAreVisibleASCII() throws {
        #expect(try URLIdentity.etag("\"9b2cf535f27731c974343645a3985328\"") == "\"9b2cf535f27731c974343645a3985328\"")
        #expect(try URLIdentity.etag("W/\"x\"") == "W/\"x\"")
        for text in ["", "\"a b\"", "\"a\nb\"", "\"a\u{1B}[2J\"", "\"ü\"", String(repeating: "a", count: 257)] {
            #expect(throws: URLIdentity.Problem.etag) { try URLIdentity.etag(text) }
        }
    }
}
