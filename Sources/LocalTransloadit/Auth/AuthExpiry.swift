import AssemblyLine
import Foundation

/// Reads `auth.expires` in the forms clients send (transloadit-api.md §2.3).
///
/// - `YYYY/MM/DD HH:MM:SS+00:00` (the Python and Go SDKs; TransloaditKit's unpadded seconds too)
/// - ISO 8601: `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` (the Node SDK's `toISOString()`)
enum AuthExpiry {
    /// The instant `text` names, or nil when it is in neither form.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let (stamp, offsetSeconds) = splitOffset(trimmed)
        guard let offsetSeconds else { return nil }
        let fields = stamp.split(whereSeparator: { "/-T :.".contains($0) }).map(String.init)
        guard fields.count == 6 || fields.count == 7 else { return nil }
        let separatorsOK = stamp.contains("/") ? !stamp.contains("T") : stamp.contains("T")
        guard separatorsOK, fields[0].count == 4, fields[1...4].allSatisfy({ (1...2).contains($0.count) }),
              (1...2).contains(fields[5].count), let year = Int(fields[0]), let month = Int(fields[1]),
              let day = Int(fields[2]), let hour = Int(fields[3]), let minute = Int(fields[4]),
              let second = Int(fields[5]) else { return nil }
        var millisecond = 0
        if fields.count == 7 {
            guard fields[6].allSatisfy(\.isNumber), let fraction = Double("0." + fields[6]) else { return nil }
            millisecond = min(999, Int((fraction * 1000).rounded()))
        }
        guard let time = UTCDateTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
        else { return nil }
        return time.date.addingTimeInterval(-Double(offsetSeconds))
    }

    /// The stamp without its zone, and the zone's offset east of UTC in seconds (nil when malformed or missing).
    private static func splitOffset(_ text: String) -> (String, Int?) {
        if text.hasSuffix("Z") { return (String(text.dropLast()), 0) }
        if text.hasSuffix(" GMT") || text.hasSuffix(" UTC") { return (String(text.dropLast(4)), 0) }
        guard text.count > 6 else { return (text, nil) }
        let zone = text.suffix(6)
        let sign = zone.first
        guard sign == "+" || sign == "-", zone.dropFirst(3).first == ":",
              let hours = Int(zone.dropFirst().prefix(2)), let minutes = Int(zone.suffix(2)),
              hours < 24, minutes < 60 else { return (text, nil) }
        let seconds = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
        return (String(text.dropLast(6)), seconds)
    }
}
