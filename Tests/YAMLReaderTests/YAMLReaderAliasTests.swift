import AssemblyLine
import ConfigFormat
import Testing
import YAMLReader

/// Anchors, aliases (bounded) and merge keys.
@Suite struct YAMLReaderAliasTests {
    @Test func aliasIsACopyAtTheAliasMark() throws {
        let root = try YAMLReader.parse("base: &b {x: 1}\ncopy: *b\nname: &n demo\nagain: *n\n", file: "test.yaml")
        let anchored = Node.mapping(1, 7, [(Node.plain("x", 1, 11), Node.plain("1", 1, 14))])
        let expected = Node.mapping(1, 1, [
            (Node.plain("base", 1, 1), anchored),
            (Node.plain("copy", 2, 1), Node.mapping(2, 7, [(Node.plain("x", 1, 11), Node.plain("1", 1, 14))])),
            (Node.plain("name", 3, 1), Node.plain("demo", 3, 7)),
            (Node.plain("again", 4, 1), Node.plain("demo", 4, 8)),
        ])
        #expect(root == expected)
    }

    @Test func aliasesWithinTheBoundExpand() throws {
        let root = try YAMLReader.parse("a: &a [1, 2, 3]\nb: &b [*a, *a]\nc: [*b, *b, *b]\n", file: "test.yaml")
        let c = try #require(Node.value("c", in: root))
        guard case .sequence(let bs) = c.content else { Issue.record("c is not a sequence"); return }
        #expect(bs.count == 3)
        #expect(bs.map(\.mark) == [SourceMark(line: 3, column: 5), SourceMark(line: 3, column: 9), SourceMark(line: 3, column: 13)])
        guard case .sequence(let inner) = bs[2].content else { Issue.record("b is not a sequence"); return }
        #expect(inner.map(\.content) == Array(repeating: .sequence([Node.plain("1", 1, 8), Node.plain("2", 1, 11), Node.plain("3", 1, 14)]), count: 2))
    }

    @Test func billionLaughsIsRefused() throws {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        var lines = ["a: &a [" + Array(repeating: "x", count: 10).joined(separator: ", ") + "]"]
        for (previous, name) in zip(names, names.dropFirst()) {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
        }
        let error = try #require(parseError(lines.joined(separator: "\n")))
        // Nodes per anchor: a 11, b 111, c 1111, d 11111. Aliases add 110 (b), 1110 (c) and 11110 (d),
        // then the eighth *d on line e passes 100000: 12330 + 8 × 11111.
        #expect(error.mark == SourceMark(line: 5, column: 8 + 7 * 4))
        #expect(error.message == "aliases expand to more than 100000 nodes; refusing a document that grows exponentially")
    }

    @Test(arguments: [
        ("a: *nope\n", SourceMark(line: 1, column: 4), "alias '*nope' has no anchor '&nope' before it"),
        ("a: &a [1, *a]\n", SourceMark(line: 1, column: 11), "alias '*a' is inside the node anchored '&a'; recursive aliases are not supported"),
    ])
    func badAliasesAreRefused(_ text: String, _ mark: SourceMark, _ message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.mark == mark)
        #expect(error.message == message)
    }

    @Test func mergeKeysBringEntriesAndExplicitKeysWin() throws {
        let text = """
            base: &base
              a: 1
              b: 2
            other: &other
              b: 20
              c: 30
            derived:
              <<: [*base, *other]
              b: 200
              d: 4
            single:
              <<: *other
              e: 5

            """
        let root = try YAMLReader.parse(text, file: "test.yaml")
        let derived = try #require(Node.value("derived", in: root))
        let expected = Node.mapping(8, 3, [
            (Node.plain("a", 2, 3), Node.plain("1", 2, 6)),
            (Node.plain("c", 6, 3), Node.plain("30", 6, 6)),
            (Node.plain("b", 9, 3), Node.plain("200", 9, 6)),
            (Node.plain("d", 10, 3), Node.plain("4", 10, 6)),
        ])
        #expect(derived == expected)
        let single = try #require(Node.value("single", in: root))
        #expect(Node.keys(of: single) == ["b", "c", "e"])
    }

    @Test func earlierMergedMappingsWinOverLaterOnes() throws {
        let root = try YAMLReader.parse("m:\n  <<: [{k: first}, {k: second, z: 1}]\n", file: "test.yaml")
        let m = try #require(Node.value("m", in: root))
        #expect(Node.keys(of: m) == ["k", "z"])
        #expect(Node.value("k", in: m)?.content == .scalar("first", quoted: false))
    }

    @Test func aQuotedMergeKeyIsAnOrdinaryKey() throws {
        let root = try YAMLReader.parse("\"<<\": {a: 1}\n", file: "test.yaml")
        guard case .mapping(let entries) = root.content else { Issue.record("root is not a mapping"); return }
        #expect(entries.map(\.key.content) == [.scalar("<<", quoted: true)])
    }

    @Test(arguments: [
        ("m:\n  <<: 1\n", SourceMark(line: 2, column: 7), "merge key '<<' takes a mapping or a sequence of mappings, not a scalar"),
        ("m:\n  <<: [{a: 1}, [2]]\n", SourceMark(line: 2, column: 16), "merge key '<<' takes mappings, not a sequence"),
        ("m:\n  <<: {a: 1}\n  <<: {b: 2}\n", SourceMark(line: 3, column: 3), "duplicate key '<<' (first at 2:3)"),
    ])
    func badMergesAreRefused(_ text: String, _ mark: SourceMark, _ message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.mark == mark)
        #expect(error.message == message)
    }
}
