import AssemblyLine
import ConfigFormat
import Testing
import YAMLReader

/// Syntax and structure errors print `FILE:LINE:COL: message`, the line, and a caret under the column.
@Suite struct YAMLReaderErrorTests {
    @Test(arguments: [
        (
            "bad indentation",
            "a: 1\n  b: 2\n",
            "test.yaml:2:4: mapping values are not allowed in this context\n  b: 2\n   ^"
        ),
        (
            "unclosed quote points at the opening quote",
            "name: \"abc\nnext: 1\n",
            "test.yaml:1:7: found unexpected end of stream while scanning a quoted scalar that starts here\nname: \"abc\n      ^"
        ),
        (
            "tab indentation",
            "a:\n\tb: 1\n",
            "test.yaml:2:1: found a tab character that cannot start any token (indent with spaces, not tabs)\n\tb: 1\n^"
        ),
        (
            "unclosed flow sequence before more content",
            "a: [1, 2\nb: 3\n",
            "test.yaml:2:2: did not find expected ',' or ']' while parsing a flow sequence that starts at 1:4\nb: 3\n ^"
        ),
        (
            "unclosed flow mapping at the end",
            "a: {x: 1\n",
            "test.yaml:1:4: did not find expected ',' or '}' while parsing a flow mapping that starts here\na: {x: 1\n   ^"
        ),
        (
            "block sequence followed by a mapping",
            "- a\nb: 1\n",
            "test.yaml:2:1: did not find expected '-' indicator while parsing a block collection that starts at 1:1\nb: 1\n^"
        ),
        (
            "tab before the column stays a tab in the caret line",
            "key:\t\"x",
            "test.yaml:1:6: found unexpected end of stream while scanning a quoted scalar that starts here\nkey:\t\"x\n    \t^"
        ),
        (
            "multibyte characters count one column each",
            "é: ü: 1\n",
            "test.yaml:1:5: mapping values are not allowed in this context\né: ü: 1\n    ^"
        ),
        (
            "a combining accent is a column for libyaml but no space in the caret line",
            "e\u{301}: ü: 1\n",
            "test.yaml:1:6: mapping values are not allowed in this context\ne\u{301}: ü: 1\n    ^"
        ),
        (
            "control character",
            "a: \u{1}\n",
            "test.yaml:1:4: control characters are not allowed: U+0001\na: \u{1}\n   ^"
        ),
        (
            "duplicate key",
            "a: 1\nb: 2\na: 3\n",
            "test.yaml:3:1: duplicate key 'a' (first at 1:1)\na: 3\n^"
        ),
        (
            "duplicate key, quoted and plain, in a flow mapping",
            "x: {k: 1, \"k\": 2}\n",
            "test.yaml:1:11: duplicate key 'k' (first at 1:5)\nx: {k: 1, \"k\": 2}\n          ^"
        ),
        (
            "second document",
            "a: 1\n---\nb: 2\n",
            "test.yaml:2:1: a second YAML document starts here; the file must hold exactly one\n---\n^"
        ),
        (
            "sequence as a key",
            "? [a]\n: 1\n",
            "test.yaml:1:3: a mapping key must be a scalar, not a sequence\n? [a]\n  ^"
        ),
        (
            "unsupported tag",
            "a: !!int 3\n",
            "test.yaml:1:4: unsupported tag '!!int' on a scalar; only !!str is accepted there\na: !!int 3\n   ^"
        ),
        (
            "local tag on a mapping",
            "a: !thing {x: 1}\n",
            "test.yaml:1:4: unsupported tag '!thing' on a mapping; only !!map is accepted there\na: !thing {x: 1}\n   ^"
        ),
    ])
    func rendersLocationLineAndCaret(_ name: String, _ text: String, _ expected: String) throws {
        let error = try #require(parseError(text), "\(name)")
        #expect(error.description == expected, "\(name)")
        #expect(error.file == "test.yaml")
        let summary = try #require(expected.split(separator: "\n").first)
        #expect(error.summary == String(summary), "\(name)")
    }

    @Test func errorKeepsItsPartsAsProperties() throws {
        let error = try #require(parseError("a: 1\nb: 2\na: 3\n"))
        #expect(error.mark == SourceMark(line: 3, column: 1))
        #expect(error.message == "duplicate key 'a' (first at 1:1)")
        #expect(error.snippet == "a: 3\n^")
    }

    @Test func nestingPastTheLimitIsRefused() throws {
        let depth = YAMLReader.maxDepth + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = try #require(parseError(text))
        #expect(error.mark == SourceMark(line: 1, column: depth))
        #expect(error.message == "collections are nested deeper than \(YAMLReader.maxDepth) levels")
    }

    @Test func secondDocumentIsRefusedEvenWhenEmpty() throws {
        let error = try #require(parseError("---\na: 1\n---\n"))
        #expect(error.mark == SourceMark(line: 3, column: 1))
    }
}
