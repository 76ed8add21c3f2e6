import ConfigFormat
import Testing

@Suite struct JSONParsingTests {
    @Test func keepsIntegersBooleansAndNumbersApart() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":true,"c":1.5,"d":1e2,"e":-0,"f":null,"g":[false,"x"],"h":9223372036854775808}"#)
        #expect(value == .object([
            "a": .integer(1), "b": .bool(true), "c": .number(1.5), "d": .number(100), "e": .integer(0),
            "f": .null, "g": .array([.bool(false), .string("x")]), "h": .number(9_223_372_036_854_775_808),
        ]))
    }

    @Test(arguments: [
        (#""a\"b\\c\/d""#, "a\"b\\c/d"),
        (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
        (#""\u00e9\u20AC""#, "é€"),
        (#""\ud83d\ude00""#, "😀"),
        ("\"é😀\"", "é😀"),
        ("\"e\u{301}\"", "e\u{301}"),
    ])
    func decodesStrings(json: String, text: String) throws {
        let value = try JSONValue(parsing: json)
        let decoded = try #require(value.stringValue)
        #expect(Array(decoded.utf8) == Array(text.utf8))
    }

    @Test(arguments: [
        ("", 0, "expected a value, found the end of the text"),
        ("{\"a\":1,}", 7, "expected a string key"),
        ("[1,]", 3, "expected a value"),
        ("{\"a\":1,\"a\":2}", 7, "a key appears twice in one object"),
        ("01", 1, "expected the end of the document"),
        ("1.", 2, "expected a digit after '.'"),
        ("-", 1, "expected a digit"),
        ("1e999", 0, "expected a number a double can hold"),
        ("\"\\ud800\"", 1, "expected a low surrogate after a high one"),
        ("\"\\udc00\"", 1, "expected a high surrogate before a low one"),
        ("\"a\nb\"", 2, "expected a control character in a string to be escaped"),
        ("\"\\x\"", 1, "expected an escape such as \\n, \\\" or \\u00e9"),
        ("\"abc", 4, "expected '\"' to end a string, found the end of the text"),
        ("tru", 0, "expected true"),
        ("{} {}", 3, "expected the end of the document"),
        ("{'a':1}", 1, "expected a string key"),
        ("NaN", 0, "expected a value"),
    ])
    func refusesWhatIsNotStrictJSON(json: String, offset: Int, message: String) {
        #expect(throws: JSONParseError(offset: offset, message: message)) { try JSONValue(parsing: json) }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: JSONValue.maxParsingDepth + 1) + String(repeating: "]", count: JSONValue.maxParsingDepth + 1)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        let allowed = String(repeating: "[", count: JSONValue.maxParsingDepth) + String(repeating: "]", count: JSONValue.maxParsingDepth)
        #expect(throws: Never.self) { try JSONValue(parsing: allowed) }
    }

    @Test func refusesInvalidUTF8Bytes() {
        #expect(throws: JSONParseError(offset: 0, message: "expected UTF-8 text")) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
    }

    @Test func canonicalTextRoundTrips() throws {
        let text = #"{"auth":{"expires":"2026/05/20 14:03:07+00:00","key":"k"},"fields":{"n":-12,"x":0.25},"steps":{"a":{"list":[1,true,null,"\u0001"],"robot":"/x"}}}"#
        let value = try JSONValue(parsing: text)
        #expect(value.serialized == text)
    }

    @Test func describesTheOffset() {
        #expect(JSONParseError(offset: 7, message: "expected a value").description == "JSON at byte 7: expected a value")
    }
}
