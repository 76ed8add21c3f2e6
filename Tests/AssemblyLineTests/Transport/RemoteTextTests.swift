import AssemblyLine
import ConfigFormat
import Testing

/// A peer's text is printed and stored escaped and bounded: it cannot forge a line, drive the terminal or bury the rest.
@Suite struct RemoteTextTests {
    @Test(arguments: [
        ("resize failed\nshard 0: downloaded", "resize failed\\nshard 0: downloaded"),
        ("a\r\tb", "a\\r\\tb"),
        ("\u{1B}[2J\u{1B}]0;title\u{07}", "\\u{1B}[2J\\u{1B}]0;title\\u{7}"),
        ("del\u{7F} csi\u{9B}31m", "del\\u{7F} csi\\u{9B}31m"),
        ("txt.exe\u{202E}gpj.", "txt.exe\\u{202E}gpj."),
        ("one\u{2028}two", "one\\u{2028}two"),
        ("café Å 한 a\u{323}\u{307} 📷", "café Å 한 a\u{323}\u{307} 📷"),
    ])
    func controlAndFormatCharactersAreEscapedAndTheRestKept(text: String, escaped: String) {
        #expect(RemoteText.escaped(text, limit: 100) == escaped)
    }

    @Test func aLongTextIsCutToItsLimitWithAnEllipsis() {
        #expect(RemoteText.escaped(String(repeating: "é", count: 20_000), limit: 500) == String(repeating: "é", count: 500) + "…")
        #expect(RemoteText.escaped(String(repeating: "é", count: 500), limit: 500) == String(repeating: "é", count: 500))
    }

    @Test func theStatusTextsPeopleReadAreEscapedAsTheyAreRead() throws {
        let message = "no\nshard 1: downloaded\u{1B}[2J" + String(repeating: "m", count: 20_000)
        let json = JSONValue.object([
            "ok": .string("ASSEMBLY_COMPLETED"), "error": .string("BAD\u{1B}[31m"), "message": .string(message),
            "results": .object(["re\nsize": .array([.object(["name": .string("a\u{1B}[2J.jpg"), "ext": .string("j\npg"),
                                                              "mime": .string("image/\u{7}jpeg"), "id": .string("x\ny")])])]),
        ]).serialized
        let status = try #require(AssemblyStatus.decode(Array(json.utf8)))
        #expect(status.error?.rawValue == "BAD\\u{1B}[31m")
        #expect(status.message == "no\\nshard 1: downloaded\\u{1B}[2J" + String(repeating: "m", count: RemoteText.messageLimit - 26) + "…")
        let result = try #require(status.results["re\\nsize"]?.first)
        #expect([result.name, result.ext, result.mime, result.id] == ["a\\u{1B}[2J.jpg", "j\\npg", "image/\\u{7}jpeg", "x\\ny"])
    }

    @Test func anErrorSaysTheServicesMessageAndItsReason() throws {
        let json = #"{"error":"IMAGE_RESIZE_ERROR","message":"Step 'resize' could not resize a.png.","reason":"VipsJpeg: Premature end of input file"}"#
        let status = try #require(AssemblyStatus.decode(Array(json.utf8)))
        #expect(status.errorText == "Step 'resize' could not resize a.png.: VipsJpeg: Premature end of input file")
        #expect(AssemblyStatus.decode(Array(#"{"error":"X","reason":"only this"}"#.utf8))?.errorText == "only this")
        #expect(AssemblyStatus.decode(Array(#"{"error":"X"}"#.utf8))?.errorText == nil)
    }
}
