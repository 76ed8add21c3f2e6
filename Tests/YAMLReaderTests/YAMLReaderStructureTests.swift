import AssemblyLine
import ConfigFormat
import Testing
import YAMLReader

/// Scalars, sequences and mappings come out of the real libyaml with their 1-based marks.
@Suite struct YAMLReaderStructureTests {
    @Test func blockMappingsAndSequencesCarryMarksOfKeysAndValues() throws {
        let text = """
            name: demo
            count: 3
            list:
              - a
              - 'b'
            nested:
              key: "v"
              deeper:
                - x: 1
                  y: 2

            """
        let root = try YAMLReader.parse(text, file: "test.yaml")
        let expected = Node.mapping(1, 1, [
            (Node.plain("name", 1, 1), Node.plain("demo", 1, 7)),
            (Node.plain("count", 2, 1), Node.plain("3", 2, 8)),
            (Node.plain("list", 3, 1), Node.sequence(4, 3, [Node.plain("a", 4, 5), Node.quoted("b", 5, 5)])),
            (Node.plain("nested", 6, 1), Node.mapping(7, 3, [
                (Node.plain("key", 7, 3), Node.quoted("v", 7, 8)),
                (Node.plain("deeper", 8, 3), Node.sequence(9, 5, [
                    Node.mapping(9, 7, [
                        (Node.plain("x", 9, 7), Node.plain("1", 9, 10)),
                        (Node.plain("y", 10, 7), Node.plain("2", 10, 10)),
                    ]),
                ])),
            ])),
        ])
        #expect(root == expected)
    }

    @Test func flowCollectionsCarryMarks() throws {
        let root = try YAMLReader.parse(#"{a: 1, b: [x, "y"], c: {}}"#, file: "test.yaml")
        let expected = Node.mapping(1, 1, [
            (Node.plain("a", 1, 2), Node.plain("1", 1, 5)),
            (Node.plain("b", 1, 8), Node.sequence(1, 11, [Node.plain("x", 1, 12), Node.quoted("y", 1, 15)])),
            (Node.plain("c", 1, 21), Node.mapping(1, 24, [])),
        ])
        #expect(root == expected)
    }

    @Test func topLevelFlowSequence() throws {
        let root = try YAMLReader.parse("[1, 2]\n", file: "test.yaml")
        #expect(root == Node.sequence(1, 1, [Node.plain("1", 1, 2), Node.plain("2", 1, 5)]))
    }

    @Test(arguments: [
        ("plain", "a: hello world", "hello world", false, 4),
        ("number", "a: 12", "12", false, 4),
        ("boolean word", "a: yes", "yes", false, 4),
        ("null", "a: ~", "~", false, 4),
        // libyaml places an empty value right after the colon.
        ("empty value", "a:", "", false, 3),
        ("single quoted", "a: 'it''s'", "it's", true, 4),
        ("double quoted escapes", #"a: "tab\there \u00e9""#, "tab\there é", true, 4),
        ("double quoted number", #"a: "12""#, "12", true, 4),
        ("literal block", "a: |\n  x\n  y\n", "x\ny\n", true, 4),
        ("folded block, stripped", "a: >-\n  f\n  g\n", "f g", true, 4),
        ("str tag", "a: !!str 12", "12", true, 4),
        ("non-specific tag", "a: ! 12", "12", true, 4),
    ])
    func scalarTextAndQuoting(_ name: String, _ text: String, _ value: String, _ quoted: Bool, _ column: Int) throws {
        let root = try YAMLReader.parse(text, file: "test.yaml")
        let node = try #require(Node.value("a", in: root), "\(name)")
        #expect(node.content == .scalar(value, quoted: quoted), "\(name)")
        #expect(node.mark == SourceMark(line: 1, column: column), "\(name)")
    }

    @Test(arguments: ["", "\n\n", "# only a comment\n", "---\n", "--- # empty\n...\n"])
    func emptyInputIsAnEmptyMappingAtTheStart(_ text: String) throws {
        let root = try YAMLReader.parse(text, file: "test.yaml")
        #expect(root == Node.mapping(1, 1, []))
    }

    @Test func anEmptyQuotedDocumentStaysAScalar() throws {
        #expect(try YAMLReader.parse("''", file: "test.yaml") == Node.quoted("", 1, 1))
    }

    @Test func multibyteCharactersCountAsOneColumnEach() throws {
        let root = try YAMLReader.parse("名前: 値\nü: [é, \"ß\"]\n", file: "test.yaml")
        let expected = Node.mapping(1, 1, [
            (Node.plain("名前", 1, 1), Node.plain("値", 1, 5)),
            (Node.plain("ü", 2, 1), Node.sequence(2, 4, [Node.plain("é", 2, 5), Node.quoted("ß", 2, 8)])),
        ])
        #expect(root == expected)
    }

    @Test func jsonObjectParsesWithQuotedStringsAndPlainLiterals() throws {
        let json = """
            {
              "name": "demo",
              "count": 3,
              "tags": ["a", "b"],
              "nested": {"ok": true, "none": null}
            }
            """
        let root = try YAMLReader.parse(json, file: "test.json")
        let expected = Node.mapping(1, 1, [
            (Node.quoted("name", 2, 3), Node.quoted("demo", 2, 11)),
            (Node.quoted("count", 3, 3), Node.plain("3", 3, 12)),
            (Node.quoted("tags", 4, 3), Node.sequence(4, 11, [Node.quoted("a", 4, 12), Node.quoted("b", 4, 17)])),
            (Node.quoted("nested", 5, 3), Node.mapping(5, 13, [
                (Node.quoted("ok", 5, 14), Node.plain("true", 5, 20)),
                (Node.quoted("none", 5, 26), Node.plain("null", 5, 34)),
            ])),
        ])
        #expect(root == expected)
    }

    @Test func windowsLineEndingsAndByteOrderMarkDoNotShiftMarks() throws {
        let root = try YAMLReader.parse("\u{FEFF}a: 1\r\nb: 2\r\n", file: "test.yaml")
        let expected = Node.mapping(1, 1, [
            (Node.plain("a", 1, 1), Node.plain("1", 1, 4)),
            (Node.plain("b", 2, 1), Node.plain("2", 2, 4)),
        ])
        #expect(root == expected)
    }

    @Test func deepButBoundedNestingParses() throws {
        let depth = YAMLReader.maxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var node = try YAMLReader.parse(text, file: "test.yaml")
        var levels = 0
        while case .sequence(let items) = node.content {
            levels += 1
            guard let first = items.first else { break }
            node = first
        }
        #expect(levels == depth)
    }
}
