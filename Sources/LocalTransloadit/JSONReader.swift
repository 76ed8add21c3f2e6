import AssemblyLine

/// Parses JSON text (RFC 8259) into a ``JSONValue``, for the `params` field and the service's own files.
///
/// Strict: one value with optional surrounding whitespace, no comments, no trailing commas, no
/// lone surrogates, at most ``maxDepth`` nested arrays and objects. Whole numbers that fit an
/// `Int64` become `.integer`; any other number becomes `.number`. A repeated object key keeps its
/// last value, as JavaScript does.
///
/// This is the service's private reader; the domain module's `JSONValue(parsing:)` is written
/// separately and the two are meant to be merged.
enum JSONReader {
    /// Why a text is not JSON: what was expected and the UTF-8 byte offset where it went wrong.
    struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        var offset: Int
        var expected: String

        var description: String { "invalid JSON at byte \(offset): expected \(expected)" }
    }

    static let maxDepth = 512

    /// The value that `text` spells.
    static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        var cursor = Cursor(bytes: Array(text.utf8))
        cursor.skipWhitespace()
        let value = try cursor.value(depth: 0)
        cursor.skipWhitespace()
        guard cursor.atEnd else { throw cursor.failure("the end of the text") }
        return value
    }

    private struct Cursor {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position >= bytes.count }
        var current: UInt8? { atEnd ? nil : bytes[position] }

        func failure(_ expected: String) -> SyntaxError {
            SyntaxError(offset: position, expected: expected)
        }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                position += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < JSONReader.maxDepth else { throw failure("at most \(JSONReader.maxDepth) levels of nesting") }
            switch current {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case let byte? where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte): return try number()
            default: throw failure("a value")
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            for expected in word.utf8 {
                guard current == expected else { throw failure("'\(word)'") }
                position += 1
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            position += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw failure("a string key") }
                let key = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw failure("':'") }
                position += 1
                skipWhitespace()
                members[key] = try value(depth: depth + 1)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return .object(members)
                default: throw failure("',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            position += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"): position += 1; return .array(items)
                default: throw failure("',' or ']'")
                }
            }
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = position
            var isWhole = true
            if current == UInt8(ascii: "-") { position += 1 }
            if current == UInt8(ascii: "0") {
                position += 1
            } else {
                guard digits() > 0 else { throw failure("a digit") }
            }
            if current == UInt8(ascii: ".") {
                isWhole = false
                position += 1
                guard digits() > 0 else { throw failure("a digit after '.'") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                isWhole = false
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw failure("a digit in the exponent") }
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if isWhole, let integer = Int64(text) { return .integer(integer) }
            guard let number = Double(text), number.isFinite else { throw SyntaxError(offset: start, expected: "a finite number") }
            return .number(number)
        }

        mutating func digits() -> Int {
            var count = 0
            while let byte = current, (0x30...0x39).contains(byte) {
                position += 1
                count += 1
            }
            return count
        }

        mutating func string() throws(SyntaxError) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var runStart = position
            while true {
                guard let byte = current else { throw failure("a closing '\"'") }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    scalars.append(contentsOf: String(decoding: bytes[runStart..<position], as: UTF8.self).unicodeScalars)
                    position += 1
                    if byte == UInt8(ascii: "\"") { return String(scalars) }
                    scalars.append(try escape())
                    runStart = position
                } else if byte < 0x20 {
                    throw failure("an escaped control character")
                } else {
                    position += 1
                }
            }
        }

        mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
            guard let byte = current else { throw failure("an escape") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let first = try hexQuad()
                if (0xD800...0xDBFF).contains(first) {
                    guard current == UInt8(ascii: "\\") else { throw failure("a low surrogate") }
                    position += 1
                    guard current == UInt8(ascii: "u") else { throw failure("a low surrogate") }
                    position += 1
                    let second = try hexQuad()
                    guard (0xDC00...0xDFFF).contains(second) else { throw failure("a low surrogate") }
                    let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    guard let scalar = Unicode.Scalar(combined) else { throw failure("a valid code point") }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(first) else { throw failure("a valid code point") }
                return scalar
            default:
                position -= 1
                throw failure("a valid escape")
            }
        }

        mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current, let digit = Self.hexDigit(byte) else { throw failure("four hex digits") }
                value = value << 4 | digit
                position += 1
            }
            return value
        }

        static func hexDigit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case 0x30...0x39: UInt32(byte - 0x30)
            case 0x41...0x46: UInt32(byte - 0x41 + 10)
            case 0x61...0x66: UInt32(byte - 0x61 + 10)
            default: nil
            }
        }
    }
}
