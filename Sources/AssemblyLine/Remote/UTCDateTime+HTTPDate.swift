extension UTCDateTime {
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses an IMF-fixdate, the HTTP-date servers send (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`; nil
    /// for anything else, the obsolete RFC 850 and asctime forms included.
    package init?(httpDate text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == UInt8(ascii: " "), bytes[7] == UInt8(ascii: " "),
              bytes[11] == UInt8(ascii: " "), bytes[16] == UInt8(ascii: " "), bytes[19] == UInt8(ascii: ":"),
              bytes[22] == UInt8(ascii: ":"), bytes[25...].elementsEqual(" GMT".utf8),
              Self.dayNames.contains(String(decoding: bytes[0..<3], as: UTF8.self)),
              let month = Self.monthNames.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)),
              let day = Self.number(bytes, 5, 2), let year = Self.number(bytes, 12, 4), let hour = Self.number(bytes, 17, 2),
              let minute = Self.number(bytes, 20, 2), let second = Self.number(bytes, 23, 2)
        else { return nil }
        self.init(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }
}
