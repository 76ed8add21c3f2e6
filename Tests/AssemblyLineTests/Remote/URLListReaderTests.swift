import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

/// URL lists in each format, read row by row: what each row gives, what is skipped, what fails the list.
@Suite struct URLListReaderTests {
    static let rule = InputURLRule(endpoint: "https://api2.transloadit.com")

    /// Reads `bytes` written as `name`, returning every row and the error, if any.
    static func read(_ name: String, _ bytes: [UInt8], format: URLListFormat? = nil, lineLimit: Int = URLListReader.defaultLineLimit)
        async throws -> (rows: [URLListRow], error: URLListError?) {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name, bytes)
        let reader = try URLListReader(path: path, displayPath: name, format: format, rule: rule, lineLimit: lineLimit)
        var rows: [URLListRow] = []
        do {
            try await reader.read { row in
                rows.append(row)
                return .next
            }
            return (rows, nil)
        } catch {
            return (rows, error)
        }
    }

    static func read(_ name: String, _ text: String, format: URLListFormat? = nil) async throws -> (rows: [URLListRow], error: URLListError?) {
        try await read(name, Array(text.utf8), format: format)
    }

    static func entries(_ rows: [URLListRow]) -> [URLListEntry] {
        rows.compactMap { if case let .entry(entry) = $0 { entry } else { nil } }
    }

    static func skipped(_ rows: [URLListRow]) -> [URLListSkippedRow] {
        rows.compactMap { if case let .skipped(row) = $0 { row } else { nil } }
    }

    @Test func plainTextGivesAURLALineLeavingOutBlankLinesAndComments() async throws {
        let text = "\u{FEFF}# the night's media\r\nhttps://cdn.example.com/media/2026/a%20b.jpg\r\n\r\n   https://cdn.example.com/x/c.png  \n  # indented comment\nhttps://cdn.example.com/"
        let (rows, error) = try await Self.read("list.txt", text)
        #expect(error == nil)
        #expect(Self.entries(rows) == [
            URLListEntry(url: "https://cdn.example.com/media/2026/a%20b.jpg", outputName: "media/2026/a b.jpg", line: 2),
            URLListEntry(url: "https://cdn.example.com/x/c.png", outputName: "x/c.png", line: 4),
            URLListEntry(url: "https://cdn.example.com/", outputName: "cdn.example.com", line: 6),
        ])
    }

    @Test func derivedNamesAreMadeSafe() async throws {
        let text = "https://h.example.com/a/%2E%2E/b%2Fc.jpg?x=1#f\nhttps://h.example.com/%00%1B%5B2J.jpg\nhttps://h.example.com/%FF.jpg\n"
        let (rows, error) = try await Self.read("list.list", text)
        #expect(error == nil)
        #expect(Self.entries(rows).map(\.outputName) == ["a/_/b_c.jpg", "__[2J.jpg", "%FF.jpg"])
    }

    @Test func csvReadsQuotedCellsIdentityNamesAndFields() async throws {
        let csv = #"""
        \#u{FEFF}URL,name,etag,size,last_modified,fields.album,fields.Note\#r
        https://cdn.example.com/a.jpg,photos/a.jpg,"""9b2c""",1234,"Sun, 06 Nov 1994 08:49:37 GMT",summer,"a, ""quoted"" note"\#r
        "https://cdn.example.com/b,c.jpg",,,,,,\#r

        """#
        let (rows, error) = try await Self.read("list.csv", csv)
        #expect(error == nil)
        #expect(Self.entries(rows) == [
            URLListEntry(url: "https://cdn.example.com/a.jpg", outputName: "photos/a.jpg",
                         fields: ["album": .string("summer"), "Note": .string(#"a, "quoted" note"#)],
                         identity: URLIdentity(etag: "\"9b2c\"", size: 1234,
                                               lastModified: UTCDateTime(year: 1994, month: 11, day: 6, hour: 8, minute: 49, second: 37)),
                         line: 2),
            URLListEntry(url: "https://cdn.example.com/b,c.jpg", outputName: "b,c.jpg", line: 3),
        ])
    }

    @Test func jsonLinesReadObjectsWithFields() async throws {
        let lines = """
        {"url":"https://cdn.example.com/a.jpg","name":"x/a.jpg","size":12,"etag":"\\"e\\"","fields":{"n":3,"ok":true,"s":"t"}}

        {"url":"https://cdn.example.com/b.jpg","size":"13","last_modified":null}
        """
        let (rows, error) = try await Self.read("list.ndjson", lines)
        #expect(error == nil)
        #expect(Self.entries(rows) == [
            URLListEntry(url: "https://cdn.example.com/a.jpg", outputName: "x/a.jpg", fields: ["n": .integer(3), "ok": .bool(true), "s": .string("t")],
                         identity: URLIdentity(etag: "\"e\"", size: 12), line: 1),
            URLListEntry(url: "https://cdn.example.com/b.jpg", outputName: "b.jpg", identity: URLIdentity(size: 13), line: 3),
        ])
    }

    @Test func anExplicitFormatWinsOverTheExtensionAndAnUnknownExtensionNeedsOne() async throws {
        let (rows, error) = try await Self.read("urls.dat", #"{"url":"https://cdn.example.com/a.jpg"}"#, format: .jsonLines)
        #expect(error == nil)
        #expect(Self.entries(rows).map(\.outputName) == ["a.jpg"])
        #expect(throws: URLListError(file: "urls.dat", line: 0, column: 0, problem: .unknownFormat)) {
            try URLListReader(path: "/tmp/urls.dat", displayPath: "urls.dat", rule: Self.rule)
        }
    }

    /// Hostile rows are skipped with their line, column and reason; the rows around them stand.
    @Test func hostileRowsAreSkippedAndTheListGoesOn() async throws {
        let text = """
        https://cdn.example.com/first.jpg
        http://169.254.169.254/latest/meta-data
        https://user:pw@host.example.com/x
        file:///etc/passwd
        https://[fe80::1]/x
        ftp://cdn.example.com/a.jpg
        https://cdn.example.com/last.jpg
        """
        let (rows, error) = try await Self.read("list.txt", text)
        #expect(error == nil)
        #expect(Self.entries(rows).map(\.line) == [1, 7])
        let skipped = Self.skipped(rows)
        #expect(skipped.map(\.line) == [2, 3, 4, 5, 6])
        #expect(skipped.map(\.problem) == [
            .url(.address("169.254.169.254, a cloud metadata address")), .url(.credentials), .url(.scheme),
            .url(.address("fe80::1, a link-local address")), .url(.scheme),
        ])
        #expect(skipped[1].url == "https://host.example.com/x", "no password is kept")
        #expect(!skipped.map(\.description).joined().contains("pw"))
    }

    @Test func csvRowsWithBadValuesAreSkippedAtTheirCell() async throws {
        let csv = #"""
        url,name,size,etag,last_modified,fields.album
        https://cdn.example.com/a.jpg,../secret.jpg,,,,
        https://cdn.example.com/b.jpg,/etc/passwd,,,,
        https://cdn.example.com/c.jpg,,-1,,,
        https://cdn.example.com/d.jpg,,,"""a b""",,
        https://cdn.example.com/e.jpg,,,,yesterday,
        "https://cdn.example.com/f
        .jpg",,,,,
        https://cdn.example.com/g.jpg,"a\#u{1B}[2J",,,,
        https://cdn.example.com/h.jpg,,,,,ok
        """#
        let (rows, error) = try await Self.read("list.csv", csv)
        #expect(error == nil)
        #expect(Self.entries(rows).map(\.line) == [10])
        let skipped = Self.skipped(rows)
        #expect(skipped.map(\.line) == [2, 3, 4, 5, 6, 7, 9])
        #expect(skipped.map(\.column) == [31, 31, 32, 33, 34, 1, 31])
        #expect(skipped.map(\.problem) == [
            .name("has an empty, . or .. segment"), .name("is absolute; expected a relative path"), .identity(.size("-1")),
            .identity(.etag), .identity(.lastModified("yesterday")), .url(.unsafeByte), .name("holds a control or format character"),
        ])
        #expect(skipped[5].url == #"https://cdn.example.com/f\n.jpg"#, "the newline inside the quoted URL is escaped")
    }

    @Test func jsonRowsWithBadFieldsAreSkipped() async throws {
        let lines = #"""
        {"url":"https://cdn.example.com/a.jpg","fields":{"a":[1]}}
        {"url":"https://cdn.example.com/b.jpg","fields":{"bad name":"x"}}
        {"url":"https://cdn.example.com/c.jpg","fields":{"n":null}}
        """#
        let (rows, error) = try await Self.read("list.jsonl", lines)
        #expect(error == nil)
        #expect(Self.skipped(rows).map(\.problem) == [.field("a"), .field("bad name"), .field("n")])
    }

    /// A list whose form is not its format's fails whole, naming the file, line and column.
    @Test(arguments: [
        ("list.csv", "url,nmae\nhttps://cdn.example.com/a.jpg,x\n", URLListError(file: "list.csv", line: 1, column: 5, problem: .unknownKey("nmae"))),
        ("list.csv", "name,etag\nx,y\n", URLListError(file: "list.csv", line: 1, column: 1, problem: .noURLColumn)),
        ("list.csv", "url,URL\n", URLListError(file: "list.csv", line: 1, column: 5, problem: .repeatedColumn("URL"))),
        ("list.csv", "", URLListError(file: "list.csv", line: 0, column: 0, problem: .noHeader)),
        ("list.csv", "url,name\nhttps://cdn.example.com/a.jpg\n", URLListError(file: "list.csv", line: 2, column: 1, problem: .cellCount(found: 1, expected: 2))),
        ("list.csv", "url,name\nhttps://cdn.example.com/a\"b.jpg,x\n", URLListError(file: "list.csv", line: 2, column: 26, problem: .strayQuote)),
        ("list.csv", "url,name\n\"https://cdn.example.com/a.jpg\"x,y\n", URLListError(file: "list.csv", line: 2, column: 32, problem: .strayQuote)),
        ("list.csv", "url,name\n\"https://cdn.example.com/a.jpg,x\n\n", URLListError(file: "list.csv", line: 2, column: 1, problem: .unterminatedQuote)),
        ("list.csv", "url,name\n,x\n", URLListError(file: "list.csv", line: 2, column: 1, problem: .noURL)),
        ("list.jsonl", "{\"url\":\"https://cdn.example.com/a.jpg\",}\n", URLListError(file: "list.jsonl", line: 1, column: 40,
                                                                                  problem: .notJSON("expected a string key"))),
        ("list.jsonl", "[1]\n", URLListError(file: "list.jsonl", line: 1, column: 1, problem: .wrongType("a JSON object a line"))),
        ("list.jsonl", "{\"uri\":\"x\"}\n", URLListError(file: "list.jsonl", line: 1, column: 1, problem: .unknownKey("uri"))),
        ("list.jsonl", "{\"url\":5}\n", URLListError(file: "list.jsonl", line: 1, column: 1, problem: .wrongType("url to be a string"))),
        ("list.jsonl", "{\"name\":\"a\"}\n", URLListError(file: "list.jsonl", line: 1, column: 1, problem: .noURL)),
        ("list.jsonl", "{\"url\":\"https://x.example.com/a\",\"size\":1.5}\n",
         URLListError(file: "list.jsonl", line: 1, column: 1, problem: .wrongType("size to be a whole number"))),
    ] as [(String, String, URLListError)])
    func aListOfTheWrongFormFailsWhole(name: String, text: String, expected: URLListError) async throws {
        let (_, error) = try await Self.read(name, text)
        #expect(error == expected)
    }

    @Test func notUTF8FailsTheList() async throws {
        let (_, error) = try await Self.read("list.txt", Array("https://cdn.example.com/a.jpg\nhttps://cdn.example.com/".utf8) + [0xFF, 0x0A])
        #expect(error == URLListError(file: "list.txt", line: 2, column: 1, problem: .notUTF8))
    }

    @Test func aTenMegabyteLineFailsTheListWithoutBeingHeld() async throws {
        var bytes = Array("https://cdn.example.com/a.jpg\n".utf8)
        bytes += Array("https://cdn.example.com/".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20) + [0x0A]
        let (rows, error) = try await Self.read("list.txt", bytes)
        #expect(Self.entries(rows).map(\.line) == [1])
        #expect(error == URLListError(file: "list.txt", line: 2, column: 1, problem: .lineTooLong(limit: URLListReader.defaultLineLimit)))
        let (_, csvError) = try await Self.read("list.csv", Array("url\n\"https://cdn.example.com/".utf8)
                                                 + [UInt8](repeating: 0x0A, count: 70_000) + Array("\"\n".utf8))
        #expect(csvError == URLListError(file: "list.csv", line: 2, column: 1, problem: .lineTooLong(limit: URLListReader.defaultLineLimit)))
    }

    @Test func aRepeatedURLOrOutputNameFailsTheListNamingBothLines() async throws {
        let urls = "https://cdn.example.com/a.jpg\nhttps://cdn.example.com/b.jpg\nhttps://cdn.example.com/a.jpg\n"
        let (rows, error) = try await Self.read("list.txt", urls)
        #expect(Self.entries(rows).count == 2)
        #expect(error == URLListError(file: "list.txt", line: 3, column: 1, problem: .repeatedURL(firstLine: 1)))
        #expect(error?.description == "list.txt:3:1: the URL is listed on line 1 already; expected each URL once")
        let names = "https://one.example.com/x/a.jpg\n# b\nhttps://two.example.com/x/a.jpg\n"
        let (_, nameError) = try await Self.read("list.txt", names)
        #expect(nameError == URLListError(file: "list.txt", line: 3, column: 1, problem: .repeatedName("x/a.jpg", firstLine: 1)))
    }

    @Test func theCallerMayStopAfterAnyRow() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("list.txt", Array("https://a.example.com/1\nhttps://a.example.com/2\nhttps://a.example.com/3\n".utf8))
        let reader = try URLListReader(path: path, displayPath: "list.txt", rule: Self.rule)
        var seen = 0
        let summary = try await reader.read { _ in
            seen += 1
            return seen == 2 ? .stop : .next
        }
        #expect(summary.entries == 2 && summary.skipped == 0 && summary.stopped)
    }

    @Test func aMissingFileIsUnreadable() async throws {
        let reader = try URLListReader(path: "/nonexistent/list.txt", displayPath: "list.txt", rule: Self.rule)
        await #expect(throws: URLListError(file: "list.txt", line: 0, column: 0, problem: .unreadable("No such file or directory"))) {
            try await reader.read { _ in .next }
        }
    }
}
