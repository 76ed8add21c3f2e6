/// The 32 lowercase hex digits that name one Assembly; AssemblyLine chooses it before creation.
///
/// Choosing the ID on the client (`POST /assemblies/<id>`) and writing it to the ledger first is
/// what lets a resume ask the service whether an Assembly already exists instead of creating a second.
package struct AssemblyID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text form, always 32 lowercase hex digits.
    package let rawValue: String

    package static let length = 32

    /// Parses and validates an Assembly ID, or throws `LedgerError.invalidAssemblyID`.
    package init(parsing text: String) throws {
        guard Self.isValid(text) else {
            throw LedgerError.invalidAssemblyID(text, reason: "expected \(Self.length) lowercase hex digits")
        }
        rawValue = text
    }

    /// Parses an Assembly ID; nil when `text` is not one.
    package init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        rawValue = text
    }

    /// A fresh random Assembly ID from the system's random source.
    package static func generate() -> AssemblyID {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// A fresh random Assembly ID from `generator` (seedable in tests): a version-4 UUID without dashes.
    ///
    /// The form node-sdk sends (`randomUUID()` with the dashes removed, `src/Transloadit.ts`):
    /// 122 random bits, the version nibble 4 and the RFC 4122 variant bits `10`.
    package static func generate<G: RandomNumberGenerator>(using generator: inout G) -> AssemblyID {
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000                       // the 13th hex digit is 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000   // the 17th is 8, 9, a or b
        let text = [high, low].map { half in
            let hex = String(half, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        return AssemblyID(unchecked: text)
    }

    package var description: String { rawValue }

    package static func < (lhs: AssemblyID, rhs: AssemblyID) -> Bool { lhs.rawValue < rhs.rawValue }

    private init(unchecked text: String) {
        rawValue = text
    }

    private static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        return bytes.count == length && bytes.allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        }
    }
}
