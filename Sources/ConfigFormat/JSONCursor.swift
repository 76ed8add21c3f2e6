/// A one-pass reader of a JSON document from a network peer, as lenient as Foundation's `JSONDecoder` and building
/// only what its caller reads.
///
/// A caller walks the document once: it reads the members and elements it acts on (``object(_:)``, ``array(_:)``,
/// ``text()``, ``integer()``, ``number()``, ``bool()``) and ``skip()``s the rest. As Foundation's scanner does, the
/// whole document's structure is checked (brackets, commas, colons, literals, where each string and number ends,
/// at most ``maxDepth`` arrays and objects deep, only whitespace after the value), while a string's contents and
/// a number's form are judged only where they are read: a bad one reads as missing there, and is never looked at
/// where it is skipped. Like Foundation, it takes a trailing comma in an array or an object and skips a UTF-8 byte
/// order mark. A value of another kind than the one asked for is skipped and reads as missing. Config files are
/// read by the strict ``JSONValue/init(parsing:)-([UInt8])`` instead.
package struct JSONCursor {
    /// The deepest nesting of arrays and objects a document may have (Foundation's bound: 512).
    package static let maxDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, index: Int) {
        self.bytes = bytes
        self.index = index
    }

    /// What `read` makes of a whole document (`body` reads its one value); nil when the document is malformed.
    package static func read<Result>(_ document: [UInt8], _ body: (inout JSONCursor) throws(JSONCursorError) -> Result) -> Result? {
        document.withUnsafeBufferPointer { bytes in
            let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
            var cursor = JSONCursor(bytes: bytes, index: bytes.starts(with: byteOrderMark) ? 3 : 0)
            guard let result = try? body(&cursor), cursor.space() == nil else { return nil }
            return result
        }
    }

    /// The kind of the next value, which stays to be read.
    package mutating func kind() throws(JSONCursorError) -> JSONKind {
        guard let byte = space() else { throw JSONCursorError() }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw JSONCursorError()
        }
    }

    /// Passes over the next value, checking its structure only.
    package mutating func skip() throws(JSONCursorError) {
        switch try kind() {
        case .object: _ = try members(checkingKeys: false) { cursor, _ throws(JSONCursorError) in try cursor.skip() }
        case .array: _ = try array { cursor throws(JSONCursorError) in try cursor.skip() }
        case .string: _ = try scanString()
        case .number: _ = scanNumber()
        case .bool: _ = try literalBool()
        case .null: try literal("null")
        }
    }

    /// Reads the next value's members when it is an object, calling `member` with each key (which must read or skip
    /// its value); false when it is not an object, or when one of its keys is not a valid string (Foundation's
    /// keyed container fails on such a key, so a caller drops what it read of the object).
    package mutating func object(_ member: (inout JSONCursor, JSONString) throws(JSONCursorError) -> Void) throws(JSONCursorError) -> Bool {
        guard try kind() == .object else {
            try skip()
            return false
        }
        return try members(checkingKeys: true, member)
    }

    /// The members of the object that comes next; the keys' contents are judged only when `checkingKeys`.
    private mutating func members(checkingKeys: Bool, _ member: (inout JSONCursor, JSONString) throws(JSONCursorError) -> Void)
        throws(JSONCursorError) -> Bool {
        try enter()
        guard space() != UInt8(ascii: "}") else {
            index += 1
            depth -= 1
            return true
        }
        var keysValid = true
        while true {
            guard space() == UInt8(ascii: "\"") else { throw JSONCursorError() }
            let key = try scanString()
            keysValid = keysValid && (!checkingKeys || isValid(key))
            guard space() == UInt8(ascii: ":") else { throw JSONCursorError() }
            index += 1
            try member(&self, key)
            guard try endOfItem(UInt8(ascii: "}")) else { continue }
            depth -= 1
            return keysValid
        }
    }

    /// Reads the next value's elements when it is an array, calling `element` for each (which must read or skip
    /// it); false when it is not an array.
    package mutating func array(_ element: (inout JSONCursor) throws(JSONCursorError) -> Void) throws(JSONCursorError) -> Bool {
        guard try kind() == .array else {
            try skip()
            return false
        }
        try enter()
        guard space() != UInt8(ascii: "]") else {
            index += 1
            depth -= 1
            return true
        }
        while true {
            try element(&self)
            guard try endOfItem(UInt8(ascii: "]")) else { continue }
            depth -= 1
            return true
        }
    }

    /// The next value when it is a string, else nil (the value skipped).
    package mutating func string() throws(JSONCursorError) -> JSONString? {
        guard try kind() == .string else {
            try skip()
            return nil
        }
        return try scanString()
    }

    /// The next value's text when it is a valid string, else nil (the value read or skipped).
    package mutating func text() throws(JSONCursorError) -> String? {
        try string().flatMap(text)
    }

    /// The next value when it is `true` or `false`, else nil.
    package mutating func bool() throws(JSONCursorError) -> Bool? {
        guard try kind() == .bool else {
            try skip()
            return nil
        }
        return try literalBool()
    }

    /// The next value when it is a number Foundation reads as an `Int64` (``integer(_:)``), else nil.
    package mutating func integer() throws(JSONCursorError) -> Int64? {
        guard try kind() == .number else {
            try skip()
            return nil
        }
        return integer(scanNumber())
    }

    /// The next value when it is a number Foundation reads as a `Double` (``number(_:)``), else nil.
    package mutating func number() throws(JSONCursorError) -> Double? {
        guard try kind() == .number else {
            try skip()
            return nil
        }
        return number(scanNumber())
    }

    /// Whether the next byte after whitespace closes the array or object (`close`, consumed); else a comma is
    /// consumed, and a `close` right after it too (a trailing comma).
    private mutating func endOfItem(_ close: UInt8) throws(JSONCursorError) -> Bool {
        switch space() {
        case close:
            index += 1
            return true
        case UInt8(ascii: ","):
            index += 1
            guard space() == close else { return false }
            index += 1
            return true
        default:
            throw JSONCursorError()
        }
    }

    /// Consumes an opening bracket, one level deeper.
    private mutating func enter() throws(JSONCursorError) {
        guard depth < Self.maxDepth else { throw JSONCursorError() }
        depth += 1
        index += 1
    }

    /// A string from its opening quote: it ends at the first quote no backslash escapes; after `\u` four bytes
    /// follow, none of them a quote. Its contents are judged when read (``text(_:)``).
    private mutating func scanString() throws(JSONCursorError) -> JSONString {
        index += 1
        let start = index
        var isSimple = true
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return JSONString(start: start, end: index - 1, isSimple: isSimple, isASCII: isSimple && highBits < 0x80)
            case UInt8(ascii: "\\"):
                isSimple = false
                guard index + 1 < bytes.count else { throw JSONCursorError() }
                index += 2
                if bytes[index - 1] == UInt8(ascii: "u") {
                    guard index + 4 <= bytes.count, !bytes[index..<(index + 4)].contains(UInt8(ascii: "\"")) else {
                        throw JSONCursorError()
                    }
                    index += 4
                }
            case 0..<0x20:
                isSimple = false
                index += 1
            default:
                highBits |= byte
                index += 1
            }
        }
        throw JSONCursorError()
    }

    /// A number from its first byte: the run of digits, `.`, `+`, `-`, `e` and `E`; its form is judged when read.
    private mutating func scanNumber() -> JSONNumber {
        let start = index
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
                 UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                return JSONNumber(start: start, end: index)
            }
        }
        return JSONNumber(start: start, end: index)
    }

    private mutating func literalBool() throws(JSONCursorError) -> Bool {
        if bytes[index] == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    private mutating func literal(_ word: StaticString) throws(JSONCursorError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw JSONCursorError()
        }
        index += expected.count
    }

    /// Skips whitespace (space, tab, CR, LF) and says which byte follows, nil at the end.
    private mutating func space() -> UInt8? {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            case let byte: return byte
            }
        }
        return nil
    }
}

/// What kind of value comes next in a ``JSONCursor``.
package enum JSONKind: Sendable, Hashable {
    case object, array, string, number, bool, null
}

/// Where a string lies in a ``JSONCursor``'s document, between its quotes; read with ``JSONCursor/text(_:)``.
package struct JSONString: Sendable, Hashable {
    let start: Int
    let end: Int
    /// True when it holds no backslash and no control byte: its bytes are its UTF-8, if they are valid.
    let isSimple: Bool
    /// True when it is simple and ASCII: its bytes are its text.
    let isASCII: Bool
}

/// Where a number lies in a ``JSONCursor``'s document; read with ``JSONCursor/integer(_:)`` or ``JSONCursor/number(_:)``.
package struct JSONNumber: Sendable, Hashable {
    let start: Int
    let end: Int
}

/// A document a ``JSONCursor`` cannot read: its structure is broken, or it nests too deep.
package struct JSONCursorError: Error, Sendable, Hashable {}
