/// A recursive-descent reader of one JSON document over UTF-8 bytes.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// One value surrounded only by whitespace.
    mutating func document() throws(JSONParseError) -> JSONValue {
        skipSpace()
        let value = try self.value()
        skipSpace()
        guard index == bytes.count else { throw failure("expected the end of the document") }
        return value
    }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        guard let byte = peek() else { throw failure("expected a value, found the end of the text") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("expected a value")
        }
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            let keyOffset = index
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try string()
            guard members[key] == nil else {
                throw JSONParseError(offset: keyOffset, message: "a key appears twice in one object")
            }
            skipSpace()
            try expect(UInt8(ascii: ":"), "expected ':' after a key")
            skipSpace()
            members[key] = try value()
            skipSpace()
            if peek() == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "expected ',' or '}' in an object")
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            if peek() == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "expected ',' or ']' in an array")
            depth -= 1
            return .array(items)
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ end: Int) {
            if end > run { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flush(index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(index)
                scalars.append(try escape())
                run = index
            case 0..<0x20:
                throw failure("expected a control character in a string to be escaped")
            default:
                index += 1
            }
        }
        throw failure("expected '\"' to end a string, found the end of the text")
    }

    /// One escape sequence after its backslash; a `\u` high surrogate must be followed by its low half.
    private mutating func escape() throws(JSONParseError) -> Unicode.Scalar {
        let start = index
        index += 1
        guard let letter = peek() else { throw failure("expected an escape sequence") }
        index += 1
        if let scalar = Self.escaped(letter) { return scalar }
        guard letter == UInt8(ascii: "u") else {
            throw JSONParseError(offset: start, message: "expected an escape such as \\n, \\\" or \\u00e9")
        }
        let first = try hexQuad()
        if (0xDC00...0xDFFF).contains(first) {
            throw JSONParseError(offset: start, message: "expected a high surrogate before a low one")
        }
        guard (0xD800...0xDBFF).contains(first) else { return Unicode.Scalar(first)! }
        guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
            throw JSONParseError(offset: start, message: "expected a low surrogate after a high one")
        }
        index += 2
        let second = try hexQuad()
        guard (0xDC00...0xDFFF).contains(second) else {
            throw JSONParseError(offset: start, message: "expected a low surrogate after a high one")
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
    }

    /// The character a one-letter escape stands for (`\n`, `\"`, `\/`...), nil for any other letter, `u` included.
    static func escaped(_ letter: UInt8) -> Unicode.Scalar? {
        switch letter {
        case UInt8(ascii: "\""): "\""
        case UInt8(ascii: "\\"): "\\"
        case UInt8(ascii: "/"): "/"
        case UInt8(ascii: "b"): "\u{08}"
        case UInt8(ascii: "f"): "\u{0C}"
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "t"): "\t"
        default: nil
        }
    }

    private mutating func hexQuad() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexDigit(byte) else { throw failure("expected four hex digits after \\u") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw failure("expected a digit") }
        }
        var integral = true
        if peek() == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard digits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            integral = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else {
            throw JSONParseError(offset: start, message: "expected a number a double can hold")
        }
        return .number(number)
    }

    /// Skips digits and says how many there were.
    private mutating func digits() -> Int {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw failure("expected \(word)")
        }
        index += expected.count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= JSONValue.maxParsingDepth else {
            throw failure("expected at most \(JSONValue.maxParsingDepth) nested arrays and objects")
        }
    }

    private mutating func expect(_ byte: UInt8, _ message: String) throws(JSONParseError) {
        guard peek() == byte else { throw failure(message) }
        index += 1
    }

    private mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func failure(_ message: String) -> JSONParseError {
        JSONParseError(offset: index, message: message)
    }

    /// The value of one hex digit, nil for any other byte.
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
