/// The percent-encoding AWS Signature Version 4 signs: RFC 3986's unreserved bytes kept, every other byte `%XX`.
///
/// One encoding for both the URL that is sent and the canonical request that is signed, so the two
/// cannot drift apart: `A-Z a-z 0-9 - . _ ~` stay, a space is `%20` (never `+`), and `+`, `=`, `/`
/// and every byte of a non-ASCII character are encoded in query names and values alike. A path
/// keeps its `/` separators and encodes each segment the same way.
package enum SigV4Encoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `text` with every byte but the unreserved ones written `%XX` (uppercase hex).
    package static func encode(_ text: String) -> String {
        encode(text, keeping: nil)
    }

    /// A path: each `/`-separated segment encoded, the separators kept.
    package static func encodePath(_ path: String) -> String {
        encode(path, keeping: UInt8(ascii: "/"))
    }

    /// The canonical query string: each name and value encoded, the pairs sorted by encoded name
    /// (then value), joined by `&`.
    package static func canonicalQuery(_ items: [(name: String, value: String)]) -> String {
        items.map { (encode($0.name), encode($0.value)) }
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// True for the bytes RFC 3986 calls unreserved.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func encode(_ text: String, keeping kept: UInt8?) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || byte == kept {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
