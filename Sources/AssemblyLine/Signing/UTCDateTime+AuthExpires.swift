extension UTCDateTime {
    /// `YYYY/MM/DD HH:MM:SS+00:00`: the form of `auth.expires` that the official SDKs send (shared/reference/transloadit-api.md §2.3).
    package var authExpiresText: String {
        Self.digits(year, 4) + "/" + Self.digits(month, 2) + "/" + Self.digits(day, 2) + " "
            + Self.digits(hour, 2) + ":" + Self.digits(minute, 2) + ":" + Self.digits(second, 2) + "+00:00"
    }

    /// Parses an `auth.expires` value: `YYYY/MM/DD HH:MM:SS+00:00`, or ISO 8601 in UTC
    /// (`YYYY-MM-DDTHH:MM:SSZ` or with milliseconds, `.sssZ`); nil for anything else.
    package init?(authExpiresText text: String) {
        let bytes = Array(text.utf8)
        if bytes.count == 25, bytes[4] == UInt8(ascii: "/"), bytes[7] == UInt8(ascii: "/"), bytes[10] == UInt8(ascii: " "),
           bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), text.hasSuffix("+00:00") {
            self.init(fields: bytes)
            return
        }
        if bytes.count == 20, bytes[19] == UInt8(ascii: "Z") {
            self.init(iso8601Text: String(text.dropLast()) + ".000Z")
            return
        }
        self.init(iso8601Text: text)
    }

    /// Reads `YYYY?MM?DD?HH?MM?SS` at the fixed offsets both forms share.
    private init?(fields bytes: [UInt8]) {
        guard let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
              let day = Self.number(bytes[8..<10]), let hour = Self.number(bytes[11..<13]),
              let minute = Self.number(bytes[14..<16]), let second = Self.number(bytes[17..<19])
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
