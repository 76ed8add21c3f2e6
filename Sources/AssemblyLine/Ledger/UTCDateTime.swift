package import Foundation

/// A calendar instant in UTC with millisecond precision, for the fixed-width timestamps of run IDs and the ledger.
///
/// The conversion is plain arithmetic on the proleptic Gregorian calendar, so it needs no locale,
/// time zone database or formatter, and it gives the same text on every machine.
package struct UTCDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let year: Int
    package let month: Int
    package let day: Int
    package let hour: Int
    package let minute: Int
    package let second: Int
    package let millisecond: Int

    /// Validates the fields; nil when one is out of range (a 30 February, hour 24, year 10000, ...).
    package init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysInMonth(month, of: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              (0...999).contains(millisecond)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    /// The instant of `date`, rounded to the nearest millisecond.
    ///
    /// Dates outside the years 1 to 9999 are clamped to those bounds.
    package init(_ date: Date) {
        let lowest: Int64 = -62_135_596_800_000
        let highest: Int64 = 253_402_300_799_999
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        let total = scaled.isFinite ? Int64(max(Double(lowest), min(Double(highest), scaled))) : 0
        let millisecondsPerDay: Int64 = 86_400_000
        let days = total >= 0 ? total / millisecondsPerDay : (total - millisecondsPerDay + 1) / millisecondsPerDay
        let inDay = Int(total - days * millisecondsPerDay)
        let (year, month, day) = Self.civilDate(fromDaysSinceEpoch: Int(days))
        self.year = year
        self.month = month
        self.day = day
        self.hour = inDay / 3_600_000
        self.minute = inDay / 60_000 % 60
        self.second = inDay / 1000 % 60
        self.millisecond = inDay % 1000
    }

    /// The instant as a `Date`.
    package var date: Date {
        let days = Int64(Self.daysSinceEpoch(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: Double(seconds * 1000 + Int64(millisecond)) / 1000)
    }

    /// `YYYYMMDDTHHMMSSZ`, to the second, as run IDs begin.
    package var compactText: String {
        pad(year, 4) + pad(month, 2) + pad(day, 2) + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2) + "Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, ISO 8601 with milliseconds; the ledger stores times this way.
    package var iso8601Text: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2)
            + ":" + pad(second, 2) + "." + pad(millisecond, 3) + "Z"
    }

    package var description: String { iso8601Text }

    /// Parses exactly the form `iso8601Text` writes; nil for anything else.
    package init?(iso8601Text text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z"),
              let year = Self.number(bytes, 0, 4), let month = Self.number(bytes, 5, 2),
              let day = Self.number(bytes, 8, 2), let hour = Self.number(bytes, 11, 2),
              let minute = Self.number(bytes, 14, 2), let second = Self.number(bytes, 17, 2),
              let millisecond = Self.number(bytes, 20, 3)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                  millisecond: millisecond)
    }

    /// Parses exactly the form `compactText` writes; nil for anything else.
    package init?(compactText text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z"),
              let year = Self.number(bytes, 0, 4), let month = Self.number(bytes, 4, 2),
              let day = Self.number(bytes, 6, 2), let hour = Self.number(bytes, 9, 2),
              let minute = Self.number(bytes, 11, 2), let second = Self.number(bytes, 13, 2)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    package static func < (lhs: UTCDateTime, rhs: UTCDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second * 1000 + lhs.millisecond)
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second * 1000 + rhs.millisecond)
    }

    // MARK: - Calendar arithmetic

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given date, counting in 400-year eras of 146,097 days
    /// whose years start on 1 March, so that the leap day falls at the end of a year.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let marchMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSinceEpoch`.
    static func civilDate(fromDaysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The decimal number of `count` digits at `start`, nil when a byte there is no digit.
    static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
