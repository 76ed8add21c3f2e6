extension JSONCursor {
    /// The text of a string as Foundation's `JSONDecoder` reads it, nil where it refuses it: a byte that is not
    /// UTF-8, an unescaped control character, an unknown escape, an unpaired surrogate (`\ud83d` alone).
    package func text(_ string: JSONString) -> String? {
        if string.isASCII { return String(decoding: UnsafeBufferPointer(rebasing: bytes[string.start..<string.end]), as: UTF8.self) }
        if string.isSimple { return String(validating: UnsafeBufferPointer(rebasing: bytes[string.start..<string.end]), as: UTF8.self) }
        var output = ""
        var index = string.start
        var run = index
        func flush(_ end: Int) -> Bool {
            guard let chunk = String(validating: UnsafeBufferPointer(rebasing: bytes[run..<end]), as: UTF8.self) else { return false }
            output += chunk
            return true
        }
        while index < string.end {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                guard flush(index), let scalar = escape(at: &index, before: string.end) else { return nil }
                output.unicodeScalars.append(scalar)
                run = index
            case 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return flush(index) ? output : nil
    }

    /// Whether a string is one ``text(_:)`` reads, without building it when it is ASCII.
    func isValid(_ string: JSONString) -> Bool {
        string.isASCII || text(string) != nil
    }

    /// Whether a string without escapes is `name`, compared byte for byte (`name` being ASCII, no other text equals it).
    func text(_ string: JSONString, is name: [UInt8]) -> Bool {
        name.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: bytes[string.start..<string.end]).elementsEqual($0) }
    }

    /// The escape at `index` (its backslash), moving past it; a `\u` high surrogate needs its low half next.
    private func escape(at index: inout Int, before end: Int) -> Unicode.Scalar? {
        let letter = bytes[index + 1]
        index += 2
        if let scalar = JSONParser.escaped(letter) { return scalar }
        guard letter == UInt8(ascii: "u"), let first = hexQuad(at: &index) else { return nil }
        guard UTF16.isLeadSurrogate(first) else { return Unicode.Scalar(first) }
        guard index + 2 <= end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
        index += 2
        guard let second = hexQuad(at: &index), UTF16.isTrailSurrogate(second) else { return nil }
        return UTF16.decode(UTF16.EncodedScalar([first, second]))
    }

    /// Four hex digits at `index` (the scan made sure four bytes are there), moving past them.
    private func hexQuad(at index: inout Int) -> UInt16? {
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = JSONParser.hexDigit(byte) else { return nil }
            value = value << 4 | digit
        }
        index += 4
        return UInt16(value)
    }
}
