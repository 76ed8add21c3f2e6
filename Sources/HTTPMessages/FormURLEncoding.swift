/// The `application/x-www-form-urlencoded` serialization of name/value pairs (WHATWG URL §5.2).
package enum FormURLEncoding {
    /// `name=value` pairs joined by `&`; bytes outside `*-._` and ASCII alphanumerics are percent-encoded, space as `+`.
    package static func encode(_ fields: [(name: String, value: String)]) -> String {
        fields.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }

    /// One name or value, escaped; with `spaceAsPlus` false, a space is `%20` as a URL path segment needs.
    package static func escape(_ text: String, spaceAsPlus: Bool = true) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2A, 0x2D, 0x2E, 0x5F:
                output.append(byte)
            case 0x20 where spaceAsPlus:
                output.append(0x2B)
            default:
                output += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
