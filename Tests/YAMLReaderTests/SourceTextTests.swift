import AssemblyLine
import ConfigFormat
import Testing
import YAMLReader

/// Lines and snippets of `SourceText`, the format shared with validators' errors.
@Suite struct SourceTextTests {
    @Test func renderUsesTheParseErrorFormat() {
        let source = SourceText(file: "m.yaml", text: "name: demo\nsize: lots\n")
        let rendered = source.render(mark: SourceMark(line: 2, column: 7), message: "expected a size such as 512KiB")
        #expect(rendered == "m.yaml:2:7: expected a size such as 512KiB\nsize: lots\n      ^")
    }

    @Test func renderKeepsTabsBeforeTheCaret() {
        let source = SourceText(file: "m.yaml", text: "a:\n\tb:\tc\n")
        let rendered = source.render(mark: SourceMark(line: 2, column: 5), message: "bad")
        #expect(rendered == "m.yaml:2:5: bad\n\tb:\tc\n\t  \t^")
    }

    @Test func renderWithoutSuchLineHasNoSnippet() {
        let source = SourceText(file: "m.yaml", text: "a: 1\n")
        #expect(source.render(mark: SourceMark(line: 9, column: 1), message: "bad") == "m.yaml:9:1: bad")
    }

    @Test func caretPastTheEndOfTheLineIsPadded() {
        let source = SourceText(file: "m.yaml", text: "ab\n")
        #expect(source.snippet(at: SourceMark(line: 1, column: 5)) == "ab\n    ^")
    }

    @Test(arguments: [
        ("unix", "one\ntwo\nthree"),
        ("windows", "one\r\ntwo\r\nthree"),
        ("old mac", "one\rtwo\rthree"),
        ("next line and line separator", "one\u{85}two\u{2028}three"),
        ("byte order mark", "\u{FEFF}one\ntwo\nthree"),
    ])
    func linesSplitAtEveryYAMLLineBreak(_ name: String, _ text: String) {
        let source = SourceText(file: "m.yaml", text: text)
        #expect(source.line(at: 1) == "one", "\(name)")
        #expect(source.line(at: 2) == "two", "\(name)")
        #expect(source.line(at: 3) == "three", "\(name)")
        #expect(source.line(at: 4) == nil, "\(name)")
        #expect(source.line(at: 0) == nil, "\(name)")
    }

    @Test func textEndingInABreakHasAnEmptyLastLine() {
        let source = SourceText(file: "m.yaml", text: "a\n")
        #expect(source.line(at: 2) == "")
        #expect(source.line(at: 3) == nil)
    }

    @Test func longLinesShowAWindowAroundTheColumn() throws {
        let line = String(repeating: "a", count: 200) + "X" + String(repeating: "b", count: 200)
        let source = SourceText(file: "m.json", text: line)
        let snippet = try #require(source.snippet(at: SourceMark(line: 1, column: 201)))
        let parts = snippet.split(separator: "\n", omittingEmptySubsequences: false)
        let window = String(repeating: "a", count: 60) + "X" + String(repeating: "b", count: 59)
        #expect(parts.first.map(String.init) == "…" + window + "…")
        #expect(parts.last.map(String.init) == String(repeating: " ", count: 61) + "^")
    }

    @Test func longLineWindowStopsAtTheEnd() throws {
        let line = String(repeating: "a", count: 300) + "X"
        let source = SourceText(file: "m.json", text: line)
        let snippet = try #require(source.snippet(at: SourceMark(line: 1, column: 301)))
        let parts = snippet.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(parts.first.map(String.init) == "…" + String(repeating: "a", count: 119) + "X")
        #expect(parts.last.map(String.init) == String(repeating: " ", count: 120) + "^")
    }
}
