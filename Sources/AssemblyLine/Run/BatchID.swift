package import Foundation

/// What ties the runs of one night together, one per partition: given with `--batch`, or the manifest's name and the UTC date.
///
/// It is recorded with each run and sent in each Assembly's `fields` (`assemblyline_batch`), so that
/// the partitions of a night can be merged from their ledgers and traced from the account's side.
package struct BatchID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String

    /// What a batch ID may hold.
    package static let expected = "1 to 96 letters, digits, '.', '_' and '-'"

    /// nil unless `rawValue` is ``expected``.
    package init?(rawValue: String) {
        guard (1...96).contains(rawValue.utf8.count),
              rawValue.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else { return nil }
        self.rawValue = rawValue
    }

    /// `NAME-YYYY-MM-DD`: the batch of a manifest's runs started on that UTC day (partitions that may start
    /// on both sides of midnight should be given one `--batch`, as `deploy/` does).
    package static func daily(_ manifestName: String, at time: Date) -> BatchID {
        let day = UTCDateTime(time)
        let text = "\(manifestName)-\(day.year)-\(Self.twoDigits(day.month))-\(Self.twoDigits(day.day))"
        // A manifest's name is at most 64 of the same characters: the text is always a batch ID.
        return BatchID(uncheckedRawValue: text)
    }

    private init(uncheckedRawValue: String) {
        rawValue = uncheckedRawValue
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    package var description: String { rawValue }
}

private extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
