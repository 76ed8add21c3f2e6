import HTTPMessages
import TestSupport
import Testing

@Suite struct MultipartParserTests {
    static let chunkSizes = [1, 7, 4096, Int.max]

    /// A body whose file content is built to trip a careless boundary search.
    static func trickyBody() -> (MultipartBodyBuilder, [MultipartEvent]) {
        let boundary = "----AssemblyLineBoundary7MA4YWxk"
        var random = SplitMix64(seed: 42)
        let nearMiss = Array("\r\n--\(boundary.dropLast())X".utf8) + Array("\r\r\n-\r\n--".utf8)
        let binary = random.bytes(10_000) + nearMiss + random.bytes(333) + [13]
        var builder = MultipartBodyBuilder(boundary: boundary)
        builder.preamble = Array("This is a preamble.\r\n".utf8)
        builder.epilogue = Array("\r\nepilogue text".utf8)
        builder.parts = [
            .field(name: "params", value: Array(#"{"auth":{"key":"k"},"steps":{}}"#.utf8)),
            .file(name: "file_1", filename: "a.jpg", contentType: "image/jpeg", data: binary),
            .field(name: "empty", value: []),
            .file(name: "file_2", filename: "empty.bin", contentType: "application/octet-stream", data: []),
            .field(name: "note", value: Array("été\r\nline two".utf8)),
        ]
        let expected: [MultipartEvent] = [
            .field(name: "params", value: #"{"auth":{"key":"k"},"steps":{}}"#),
            .file(name: "file_1", filename: "a.jpg", contentType: "image/jpeg", data: binary),
            .field(name: "empty", value: ""),
            .file(name: "file_2", filename: "empty.bin", contentType: "application/octet-stream", data: []),
            .field(name: "note", value: "été\r\nline two"),
        ]
        return (builder, expected)
    }

    @Test(arguments: chunkSizes)
    func parsesTheSameWhateverTheChunkSize(chunkSize: Int) throws {
        let (builder, expected) = Self.trickyBody()
        let sink = try parse(builder.build(), contentType: builder.contentType, chunkSize: chunkSize)
        #expect(sink.events == expected)
        // A piece is at most one input chunk plus a held-back partial boundary ("\r\n--" + boundary).
        let (bound, overflow) = chunkSize.addingReportingOverflow(builder.boundary.utf8.count + 4)
        #expect(overflow || sink.largestPiece <= bound)
    }

    @Test(arguments: chunkSizes)
    func acceptsABodyThatStartsWithTheBoundary(chunkSize: Int) throws {
        var builder = MultipartBodyBuilder(boundary: "b")
        builder.parts = [.field(name: "x", value: Array("1".utf8))]
        let sink = try parse(builder.build(), contentType: builder.contentType, chunkSize: chunkSize)
        #expect(sink.events == [.field(name: "x", value: "1")])
    }

    @Test func streamsALargeFileInPiecesNoLargerThanTheInput() throws {
        var random = SplitMix64(seed: 7)
        let data = random.bytes(3 << 20)
        var builder = MultipartBodyBuilder(boundary: "xyzzy")
        builder.parts = [.file(name: "f", filename: "big.bin", contentType: "application/octet-stream", data: data)]
        let sink = try parse(builder.build(), contentType: builder.contentType, chunkSize: 65_536)
        #expect(sink.events == [.file(name: "f", filename: "big.bin", contentType: "application/octet-stream", data: data)])
        #expect(sink.pieces >= 48)
        #expect(sink.largestPiece <= 65_536)
    }

    @Test func readsQuotedBoundaryPaddingAndHeaderDetails() throws {
        let body = Array((
            "--a:b\t \r\n"
                + "content-disposition: FORM-DATA; name=\"we\\\"ird\"; filename=\"x y.png\"\r\n"
                + "X-Extra:  kept  \r\n\r\n"
                + "PNG\r\n--a:b--\r\n"
        ).utf8)
        var parser = try MultipartParser(contentType: "multipart/form-data; boundary=\"a:b\"")
        var sink = RecordingSink()
        try body.withUnsafeBytes { try parser.feed($0, into: &sink) }
        try parser.finish()
        #expect(parser.isComplete)
        #expect(sink.events == [.file(name: "we\"ird", filename: "x y.png", contentType: nil, data: Array("PNG".utf8))])
    }

    @Test func reportsPartHeadersToTheSink() throws {
        struct HeaderSink: MultipartSink {
            var parts: [MultipartPart] = []
            mutating func receiveField(_ field: FormField, part: MultipartPart) throws { parts.append(part) }
            mutating func beginFile(_ part: MultipartPart) throws { parts.append(part) }
            mutating func receiveFileData(_ chunk: UnsafeRawBufferPointer) throws {}
            mutating func endFile() throws {}
        }
        let (builder, _) = Self.trickyBody()
        var parser = try MultipartParser(contentType: builder.contentType)
        var sink = HeaderSink()
        try builder.build().withUnsafeBytes { try parser.feed($0, into: &sink) }
        #expect(sink.parts.map(\.index) == [1, 2, 3, 4, 5])
        #expect(sink.parts.map(\.isFile) == [false, true, false, true, false])
        #expect(sink.parts[1].headers.firstValue(named: "content-type") == "image/jpeg")
    }

    // MARK: - Errors

    @Test(arguments: [
        ("text/plain", FormDataError.notMultipart(contentType: "text/plain")),
        ("multipart/mixed; boundary=x", .notMultipart(contentType: "multipart/mixed; boundary=x")),
        ("multipart/form-data", .invalidBoundary(contentType: "multipart/form-data")),
        ("multipart/form-data; boundary=\"\"", .invalidBoundary(contentType: "multipart/form-data; boundary=\"\"")),
        ("multipart/form-data; boundary=" + String(repeating: "b", count: 71),
         .invalidBoundary(contentType: "multipart/form-data; boundary=" + String(repeating: "b", count: 71))),
    ])
    func refusesABadContentType(contentType: String, expected: FormDataError) {
        #expect(throws: expected) { _ = try MultipartParser(contentType: contentType) }
    }

    @Test(arguments: [
        // body, expected error
        ("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--", FormDataError.missingDisposition(part: 1)),
        ("--b\r\nContent-Disposition: attachment; name=\"x\"\r\n\r\nx\r\n--b--", .missingDisposition(part: 1)),
        ("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--", .missingDisposition(part: 1)),
        ("--b\r\nno colon here\r\n\r\nx\r\n--b--", .malformedHeader(part: 1, line: "no colon here")),
        ("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n folded\r\n\r\nx\r\n--b--",
         .malformedHeader(part: 1, line: " folded")),
        ("--bXY\r\n", .malformedDelimiter(offset: 3)),
        ("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--b junk", .malformedDelimiter(offset: 56)),
        ("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--b\r\n", .truncated(offset: 57)),
        ("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nabc", .truncated(offset: 52)),
        ("no boundary at all", .truncated(offset: 18)),
    ])
    func refusesAMalformedBody(body: String, expected: FormDataError) {
        for chunkSize in Self.chunkSizes {
            #expect(throws: expected, "chunk size \(chunkSize)") {
                _ = try parse(Array(body.utf8), contentType: "multipart/form-data; boundary=b", chunkSize: chunkSize)
            }
        }
    }

    @Test func enforcesItsLimits() {
        var builder = MultipartBodyBuilder(boundary: "b")
        builder.parts = [.field(name: "big", value: Array(repeating: 65, count: 101))]
        #expect(throws: FormDataError.fieldTooLarge(name: "big", limit: 100)) {
            _ = try parse(builder.build(), contentType: builder.contentType, chunkSize: 7, limits: .init(maxFieldBytes: 100))
        }
        builder.parts = [.file(name: "f", filename: String(repeating: "n", count: 300), contentType: "a/b", data: [1])]
        #expect(throws: FormDataError.headerTooLarge(part: 1, limit: 256)) {
            _ = try parse(builder.build(), contentType: builder.contentType, chunkSize: 1, limits: .init(maxHeaderBytes: 256))
        }
        builder.parts = Array(repeating: .field(name: "x", value: [49]), count: 4)
        #expect(throws: FormDataError.tooManyParts(limit: 3)) {
            _ = try parse(builder.build(), contentType: builder.contentType, chunkSize: 4096, limits: .init(maxParts: 3))
        }
    }

    @Test func refusesAFieldThatIsNotUTF8() {
        var builder = MultipartBodyBuilder(boundary: "b")
        builder.parts = [.field(name: "params", value: [0x7B, 0xFF, 0x7D])]
        #expect(throws: FormDataError.fieldNotUTF8(name: "params")) {
            _ = try parse(builder.build(), contentType: builder.contentType, chunkSize: 4096)
        }
    }

    @Test func passesTheSinkErrorOnUnchanged() {
        let (builder, _) = Self.trickyBody()
        var sink = RecordingSink()
        sink.failOnFileData = true
        #expect(throws: RecordingSink.Refusal.self) {
            _ = try parse(builder.build(), contentType: builder.contentType, chunkSize: 4096, sink: sink)
        }
    }

    @Test func errorMessagesNameThePlace() {
        #expect(FormDataError.truncated(offset: 52).description == "multipart body, byte 52: body ended before the closing boundary")
        #expect(FormDataError.fieldTooLarge(name: "params", limit: 10).description == "multipart field 'params': value exceeds 10 bytes")
        #expect(FormDataError.missingDisposition(part: 2).description.hasPrefix("multipart part 2: "))
    }
}
