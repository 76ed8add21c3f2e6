import HTTPMessages
import Testing

@Suite struct FormURLDecoderTests {
    @Test(arguments: [
        ("a=1&b=2", [("a", "1"), ("b", "2")]),
        ("a=1&&b=2&", [("a", "1"), ("b", "2")]),
        ("flag", [("flag", "")]),
        ("a=", [("a", "")]),
        ("=x", [("", "x")]),
        ("a=b=c", [("a", "b=c")]),
        ("q=one+two%20three", [("q", "one two three")]),
        ("x=%2B%26%3D", [("x", "+&=")]),
        ("euro=%E2%82%AC", [("euro", "€")]),
        ("bad=%zz%4", [("bad", "%zz%4")]),
        ("latin=%FF", [("latin", "\u{FFFD}")]),
        ("k=1&k=2", [("k", "1"), ("k", "2")]),
        ("params=%7B%22auth%22%3A%7B%22key%22%3A%22abc%22%7D%7D", [("params", #"{"auth":{"key":"abc"}}"#)]),
        ("", []),
    ])
    func decodesLikeWHATWG(input: String, expected: [(String, String)]) {
        let fields = FormURLDecoder.decode(input)
        #expect(fields == expected.map { FormField(name: $0.0, value: $0.1) })
    }

    @Test func decodesBytesTheSameAsText() {
        let text = "a=%C3%A9t%C3%A9&b=+"
        #expect(FormURLDecoder.decode(Array(text.utf8)) == FormURLDecoder.decode(text))
        #expect(FormURLDecoder.decode(text).firstValue(named: "a") == "été")
    }

    @Test func percentDecodeOfAPathKeepsPlus() {
        #expect(FormURLDecoder.percentDecode(Array("a+b%2Fc".utf8), plusAsSpace: false) == "a+b/c")
        #expect(FormURLDecoder.percentDecode(Array("a+b".utf8), plusAsSpace: true) == "a b")
    }

    @Test func fieldLookupHelpers() {
        let fields = FormURLDecoder.decode("x=1&y=2&x=3")
        #expect(fields.firstValue(named: "x") == "1")
        #expect(fields.values(named: "x") == ["1", "3"])
        #expect(fields.firstValue(named: "z") == nil)
    }
}

@Suite struct MediaTypeTests {
    @Test func parsesTypeSubtypeAndParameters() throws {
        let type = try #require(MediaType(parsing: "Multipart/Form-Data; Boundary=\"a b\\\"c\"; charset=utf-8"))
        #expect(type.essence == "multipart/form-data")
        #expect(type.parameter("boundary") == "a b\"c")
        #expect(type.parameter("CHARSET") == "utf-8")
        #expect(type.parameter("missing") == nil)
    }

    @Test(arguments: ["", "text", "text/", "/plain", "text/plain; charset", "text/plain; a=\"unterminated", "te xt/plain"])
    func rejectsMalformed(text: String) {
        #expect(MediaType(parsing: text) == nil)
    }

    @Test func toleratesEmptyParametersAndSpaces() throws {
        let type = try #require(MediaType(parsing: "application/json ;  ; charset = utf-8 ;"))
        #expect(type.essence == "application/json")
        #expect(type.parameter("charset") == "utf-8")
    }
}
