package import Foundation

/// The identity of one run: its UTC start second plus a random suffix, e.g. `20261130T210501Z-3f9a2c`.
///
/// Run IDs sort by time as plain strings (in the ledger, in `ls`, in reports). Two runs started in
/// the same second differ by their 24-bit random suffix; their mutual order is then arbitrary.
package struct RunID: Sendable, Hashable, Comparable, CustomStringConvertible, LosslessStringConvertible {
    /// The text form, always valid.
    package let rawValue: String

    /// The number of hex digits after the dash.
    package static let suffixLength = 6

    /// Parses and validates a run ID, or throws `LedgerError.invalidRunID` saying what is wrong.
    package init(parsing text: String) throws {
        if let problem = Self.problem(in: text) {
            throw LedgerError.invalidRunID(text, reason: problem)
        }
        rawValue = text
    }

    /// Parses a run ID; nil when `text` is not one.
    package init?(_ description: String) {
        guard Self.problem(in: description) == nil else { return nil }
        rawValue = description
    }

    /// A fresh run ID for `date`, with a suffix from the system's random source.
    package static func generate(at date: Date) -> RunID {
        var generator = SystemRandomNumberGenerator()
        return generate(at: date, using: &generator)
    }

    /// A fresh run ID for `date`, with a suffix from `generator` (seedable in tests).
    package static func generate<G: RandomNumberGenerator>(at date: Date, using generator: inout G) -> RunID {
        let suffix = UInt32.random(in: 0...0xFF_FFFF, using: &generator)
        let hex = String(suffix, radix: 16)
        let padded = String(repeating: "0", count: suffixLength - hex.count) + hex
        return RunID(unchecked: UTCDateTime(date).compactText + "-" + padded)
    }

    /// The ID a plan renders `{run}` with to compare output paths: every run's ID has its length, and
    /// within one run all files share it.
    package static let layoutCheck = RunID(unchecked: "19700101T000000Z-000000")

    /// The second the run started, in UTC.
    package var timestamp: Date {
        UTCDateTime(compactText: String(rawValue.prefix(16)))?.date ?? Date(timeIntervalSince1970: 0)
    }

    /// The random part after the dash.
    package var suffix: String { String(rawValue.suffix(Self.suffixLength)) }

    package var description: String { rawValue }

    package static func < (lhs: RunID, rhs: RunID) -> Bool { lhs.rawValue < rhs.rawValue }

    private init(unchecked text: String) {
        rawValue = text
    }

    /// What is wrong with `text` as a run ID, or nil when it is one.
    private static func problem(in text: String) -> String? {
        let expected = "expected YYYYMMDDTHHMMSSZ-xxxxxx (UTC time, then \(suffixLength) lowercase hex digits)"
        let bytes = Array(text.utf8)
        guard bytes.count == 16 + 1 + suffixLength, bytes[16] == UInt8(ascii: "-") else { return expected }
        guard UTCDateTime(compactText: String(decoding: bytes[0..<16], as: UTF8.self)) != nil else {
            return "the time is not a valid UTC date and time; " + expected
        }
        let isLowercaseHex = bytes[17...].allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        }
        return isLowercaseHex ? nil : "the suffix is not \(suffixLength) lowercase hex digits; " + expected
    }
}
