extension JSONValue {
    /// The deepest nesting of arrays and objects accepted.
    package static let maxParsingDepth = 256

    /// Parses strict JSON (RFC 8259) text into a value.
    ///
    /// Integers without a fraction or exponent stay ``integer(_:)`` when they fit an `Int64`;
    /// `true` and `false` are ``bool(_:)``, never numbers. Stricter than RFC 8259 where two
    /// parsers could disagree on the same bytes: a key repeated in one object, an escaped
    /// unpaired surrogate, and a number too large for a `Double` are refused. A policy compares
    /// the value it parsed while the signature covers the raw text, so every reading of the text
    /// must agree with this one.
    ///
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    package init(parsing text: String) throws(JSONParseError) {
        var parser = JSONParser(bytes: Array(text.utf8))
        self = try parser.document()
    }

    /// Parses strict JSON from UTF-8 bytes, which must be valid UTF-8.
    ///
    /// - Throws: ``JSONParseError`` for invalid UTF-8 or anything ``init(parsing:)-(String)`` refuses.
    package init(parsing bytes: [UInt8]) throws(JSONParseError) {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw JSONParseError(offset: 0, message: "expected UTF-8 text")
        }
        var parser = JSONParser(bytes: bytes)
        self = try parser.document()
    }
}
