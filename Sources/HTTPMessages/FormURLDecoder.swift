/// Decodes `application/x-www-form-urlencoded` bodies and URL query strings.
///
/// It follows the WHATWG URL standard's urlencoded parser
/// (<https://url.spec.whatwg.org/#urlencoded-parsing>), which never fails: pairs are split on `&`,
/// empty pairs are skipped, a pair without `=` has an empty value, `+` means a space, a `%`
/// that is not followed by two hex digits stays as it is, and bytes that are not UTF-8 become
/// U+FFFD. Servers such as Node's `querystring` and Go's `net/url` read forms the same lenient way,
/// which is what clients of the Transloadit API expect.
///
/// ```swift
/// FormURLDecoder.decode("params=%7B%7D&signature=sha384%3Aab")
/// // [params={}, signature=sha384:ab]
/// ```
package enum FormURLDecoder {
    /// The fields of a urlencoded body, in order, duplicates kept.
    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [FormField] {
        var fields: [FormField] = []
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: Bytes.SubSequence
            let value: Bytes.SubSequence
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                name = pair[pair.startIndex..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = pair[pair.endIndex...]
            }
            fields.append(FormField(
                name: percentDecode(name, plusAsSpace: true),
                value: percentDecode(value, plusAsSpace: true)))
        }
        return fields
    }

    /// The fields of a urlencoded string (a body or a URL's query, without the `?`).
    package static func decode(_ text: String) -> [FormField] {
        decode(Array(text.utf8))
    }

    /// Percent-decodes `bytes` into a string; with `plusAsSpace`, `+` becomes a space first.
    ///
    /// Use `plusAsSpace: false` for URL path segments, where `+` is a literal plus.
    package static func percentDecode<Bytes: Collection<UInt8>>(_ bytes: Bytes, plusAsSpace: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"),
               let first = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), first != bytes.endIndex,
               let second = bytes.index(first, offsetBy: 1, limitedBy: bytes.endIndex), second != bytes.endIndex,
               let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                output.append(high << 4 | low)
                index = bytes.index(after: second)
                continue
            }
            output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = bytes.index(after: index)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
