@testable import AssemblyLine
import ConfigFormat
import Testing

/// A status body read in one pass reads as Foundation's `JSONDecoder` read it (``FoundationStatus``), on well-formed
/// and hostile bodies alike; the decisions docs/transloadit-fidelity.md records ("status JSON") hold.
@Suite struct StatusReadingTests {
    /// Each body read both ways; the bodies on which the readings differ (as text, the first few).
    private static func differences(_ bodies: [[UInt8]]) -> [String] {
        bodies.filter { AssemblyStatus.decode($0) != FoundationStatus.decode($0) }.prefix(5).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func generatedBodiesReadAsFoundationReadsThem() {
        var generator = StatusBodyGenerator(seed: 36)
        let bodies = (0..<2_000).map { _ in generator.body() }
        #expect(bodies.contains { AssemblyStatus.decode($0)?.uploads.isEmpty == false })
        #expect(bodies.contains { AssemblyStatus.decode($0)?.unreadableEntries ?? 0 > 0 })
        #expect(bodies.contains { AssemblyStatus.decode($0) == nil })
        #expect(Self.differences(bodies) == [])
    }

    @Test func bodiesWithOneByteChangedReadAsFoundationReadsThem() {
        var generator = StatusBodyGenerator(seed: 2_026)
        let bodies = (0..<2_000).map { _ in generator.mutated(generator.body()) }
        #expect(Self.differences(bodies) == [])
    }

    @Test(arguments: [
        #"{"ok":"ASSEMBLY_COMPLETED","ok":"ASSEMBLY_EXECUTING","uploads":[{"id":"a","id":"b","size":1,"size":"2"}]}"#,
        #"{"ok":7,"ok":"ASSEMBLY_COMPLETED"}"#,
        #"{"\u006fk":"ASSEMBLY_COMPLETED","ok":"ASSEMBLY_EXECUTING"}"#,
        #"{"results":{"resize":[{"id":"1"}],"\u0072esize":[{"id":"2"}],"thumb":7,"t":null,"u":[1,null,{"id":"3"}]}}"#,
        #"{"results":{"r\u00e9sum\u00e9":[{"id":"1"}],"re\u0301sume\u0301":[{"id":"2"}]}}"#,
        #"{"results":{"ok":[{"id":"1"}],"\ud800":[]}}"#,
        #"{"results":[],"uploads":{},"tus_uploads":{"a":1},"info":[],"meta":{}}"#,
        #"{"uploads":[{"id":"a","\ud83d":1},{"id":"b"}],"tus_uploads":[{"finished":true,"\x":1},{"fieldname":"f"},3]}"#,
        #"{"original_id":["a"],"uploads":[{"original_id":["a",null,"b"]},{"original_id":["a",1]},{"original_id":null}]}"#,
        #"{"original_id":["a",null]}"#, #"{"original_id":[]}"#, #"{"original_id":"\ud83d"}"#,
        #"{"parent_id":null,"parent_assembly_status":{"assembly_id":"p"}}"#,
        #"{"parent_id":"\x","parent_assembly_status":{"assembly_id":"p","\ud800":0}}"#,
        #"{"info":{"retryIn":"41"}}"#, #"{"info":{"retryIn":1e400}}"#, #"{"info":{"retryIn":0e-400}}"#,
        #"{"uploads":[{"meta":{"width":12.0,"height":1e2,"import_url":"u"},"import_url":"v"},{"meta":{"width":-0,"height":1.5}}]}"#,
        #"{"uploads":[{"meta":{"width":1,"\x":2},"import_url":"v"},{"meta":null,"import_url":"w"}]}"#,
        #"{"uploads":[{"size":9007199254740993.5},{"size":-9223372036854775808.0},{"size":1e-400},{"size":9223372036854775808}]}"#,
        #"{"uploads":[{"size":01},{"size":1.},{"size":-},{"size":1e5e5},{"size":1-2}]}"#,
        #"{"bytes_usage":9.3e18,"queue_duration":-0.0,"execution_duration":1e-400}"#,
        #"{"message":"\ud83d\ude00 \u00e9 \/ \u0000","reason":"\ud83d","error":"\u001b[2J"}"#,
        #"{"skipped":"\x \ud83d","also":[01,-,1.,1e,1-2-3],"ok":"ASSEMBLY_COMPLETED"}"#,
        #"{"skipped":"\u12"}"#, #"{"skipped":"\u12G4","ok":"ASSEMBLY_COMPLETED"}"#,
        #"{"ok":"ASSEMBLY_COMPLETED",}"#, #"{"uploads":[{"id":"a"},],"ok":"x"}"#, #"{,}"#, #"[,]"#, #"{"a":1,,}"#,
        #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":.5}"#, #"{"a":+1}"#, #"{"a":NaN}"#, "{\"a\":1,\u{0B}\"b\":2}",
        "", " ", "null", "{}", "{} {}", #"{"ok":"ASSEMBLY_COMPLETED"}}"#,
    ])
    func handWrittenBodiesReadAsFoundationReadsThem(body: String) {
        #expect(AssemblyStatus.decode(Array(body.utf8)) == FoundationStatus.decode(Array(body.utf8)))
    }

    @Test func bytesThatAreNotUTF8ReadAsFoundationReadsThem() {
        func around(_ before: String, _ bad: [UInt8], _ after: String) -> [UInt8] {
            Array(before.utf8) + bad + Array(after.utf8)
        }
        let bad: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xC3], [0x01], [0x7F], [0xF4, 0x90, 0x80, 0x80]]
        var bodies: [[UInt8]] = []
        for bytes in bad {
            bodies.append(around(#"{"message":"a"#, bytes, #""}"#))
            bodies.append(around(#"{"skipped":"a"#, bytes, #"","ok":"ASSEMBLY_COMPLETED"}"#))
            bodies.append(around(#"{"uploads":[{"a"#, bytes, #"":1},{"id":"b"}]}"#))
            bodies.append(around(#"{"a"#, bytes, #"":1}"#))
            bodies.append([0xEF, 0xBB, 0xBF] + around(#"{"ok":"ASSEMBLY_COMPLETED","x":"#, bytes, "1}"))
        }
        #expect(Self.differences(bodies) == [])
    }

    @Test(arguments: [1, 100, 510, 511, 512, 513, 100_000])
    func nestingReadsAsFoundationReadsItUpTo512Deep(depth: Int) {
        let body = Array((#"{"ok":"ASSEMBLY_COMPLETED","deep":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}").utf8)
        #expect(AssemblyStatus.decode(body) == FoundationStatus.decode(body))
        #expect((AssemblyStatus.decode(body) != nil) == (depth < JSONCursor.maxDepth))
        let objects = Array((#"{"uploads":["# + String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth) + "]}").utf8)
        #expect(AssemblyStatus.decode(objects) == FoundationStatus.decode(objects))
    }

    @Test func aRepeatedNameCountsItsFirstMemberWhateverItHolds() throws {
        let status = try #require(AssemblyStatus.decode(Array(#"{"ok":"ASSEMBLY_COMPLETED","ok":"ASSEMBLY_EXECUTING","uploads":[{"id":"a","id":"b"}]}"#.utf8)))
        #expect(status.ok == .completed)
        #expect(status.uploads.map(\.id) == ["a"])
        #expect(AssemblyStatus.decode(Array(#"{"ok":7,"ok":"ASSEMBLY_COMPLETED"}"#.utf8))?.ok == nil)
    }

    @Test(arguments: [("12.0", 12), ("1e2", 100), ("-0", 0), ("1.5", nil), ("9223372036854775807", 9_223_372_036_854_775_807),
                      ("9223372036854775808", nil), ("1e-400", 0), ("\"12\"", nil), ("9007199254740993.5", 9_007_199_254_740_993)] as [(String, Int64?)])
    func aSizeReadsAsFoundationReadsAnInteger(number: String, size: Int64?) throws {
        let status = try #require(AssemblyStatus.decode(Array(#"{"uploads":[{"size":\#(number)}]}"#.utf8)))
        #expect(status.uploads.first?.size == size)
    }

    @Test func aTextThatIsNotTextReadsAsMissingAndSpoilsNothingElse() throws {
        let status = try #require(AssemblyStatus.decode(Array(#"{"ok":"ASSEMBLY_COMPLETED","message":"\ud83d","skipped":"\x","uploads":[{"id":"a","\ud83d":1},{"id":"b"}]}"#.utf8)))
        #expect(status.ok == .completed)
        #expect(status.message == nil)
        #expect(status.uploads.map(\.id) == ["b"])
        #expect(status.unreadableEntries == 1)
        #expect(AssemblyStatus.decode(Array(#"{"ok":"ASSEMBLY_COMPLETED","\ud83d":1}"#.utf8)) == nil)
    }

    @Test func stepsWhoseNamesEscapeAlikeShareTheirListInTheBodysOrder() throws {
        let status = try #require(AssemblyStatus.decode(Array(#"{"results":{"a\n":[{"id":"1"}],"a\\n":[{"id":"2"}],"z":[{"id":"3"}]}}"#.utf8)))
        #expect(status.results["a\\n"]?.map(\.id) == ["1", "2"])
    }

    @Test func aBodyInUTF16IsNotReadThoughFoundationReadItAsJSON() {
        let body = Array(#"{"ok":"ASSEMBLY_COMPLETED"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(FoundationStatus.decode(body)?.ok == .completed)
        #expect(AssemblyStatus.decode(body) == nil)
    }

    @Test func aResultFinishedEventReadsAsFoundationReadsIt() {
        var generator = StatusBodyGenerator(seed: 7)
        let payloads = (0..<1_000).map { _ in generator.stepResult() }
            + [#"["resize",{"id":"a"}]"#, #"["resize"]"#, #"[null,{"id":"a"}]"#, #"["\ud83d",{"id":"a"}]"#, #"["r",{"\x":1}]"#, "[]", "{}", ""]
        let differing = payloads.filter { data in
            let update = AssemblyUpdate(ServerSentEvent(event: "assembly_result_finished", data: data))
            let oracle = FoundationStepResult.decode(data).map { AssemblyUpdate.resultFinished(step: $0.step, $0.file) }
            return update != oracle
        }
        #expect(differing.prefix(5) == [])
        #expect(payloads.contains { AssemblyUpdate(ServerSentEvent(event: "assembly_result_finished", data: $0)) != nil })
    }
}
