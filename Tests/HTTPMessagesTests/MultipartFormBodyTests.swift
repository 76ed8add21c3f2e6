import HTTPMessages
import TestSupport
import Testing

/// The multipart builder against bodies spelled out by hand from RFC 7578's grammar.
@Suite struct MultipartFormBodyTests {
    static let boundary = "test-boundary-0123"
    static let crlf = "\r\n"
    let pixels: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }

    @Test(arguments: [1, 7, 64, 4096, 100_000])
    func fieldsAndFilesAreByteExact(bufferSize: Int) throws {
        // Given a text field, a file and an in-memory part
        let scratch = try TemporaryDirectory()
        let photo = try scratch.write("photo.JPG", pixels)
        var form = MultipartFormBody(boundary: Self.boundary)
        form.append(name: "params", value: #"{"auth":{"key":"k"}}"#)
        form.appendFile(name: "file_1", path: photo)
        form.append(name: "note", bytes: Array("hello".utf8), filename: "note.txt", contentType: "text/plain")

        // When the plan is read back
        let plan = try form.plan()
        let body = try BodyPlanBytes.materialize(plan, bufferSize: bufferSize)

        // Then it is exactly the hand-built body, and its declared length is its length
        let crlf = Self.crlf
        var expected = Array("--\(Self.boundary)\(crlf)".utf8)
        expected += Array("Content-Disposition: form-data; name=\"params\"\(crlf)\(crlf)".utf8)
        expected += Array(#"{"auth":{"key":"k"}}"#.utf8)
        expected += Array("\(crlf)--\(Self.boundary)\(crlf)".utf8)
        expected += Array("Content-Disposition: form-data; name=\"file_1\"; filename=\"photo.JPG\"\(crlf)".utf8)
        expected += Array("Content-Type: image/jpeg\(crlf)\(crlf)".utf8)
        expected += pixels
        expected += Array("\(crlf)--\(Self.boundary)\(crlf)".utf8)
        expected += Array("Content-Disposition: form-data; name=\"note\"; filename=\"note.txt\"\(crlf)".utf8)
        expected += Array("Content-Type: text/plain\(crlf)\(crlf)hello".utf8)
        expected += Array("\(crlf)--\(Self.boundary)--\(crlf)".utf8)
        #expect(body == expected)
        #expect(plan.contentLength == Int64(expected.count))
        #expect(form.contentType == "multipart/form-data; boundary=\(Self.boundary)")
    }

    @Test func fileContentIsReferencedNotCopied() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("big.bin", pixels)
        var form = MultipartFormBody(boundary: Self.boundary)
        form.appendFile(name: "f", path: path)
        let plan = try form.plan()
        #expect(plan.segments.contains(.file(path: path, offset: 0, length: Int64(pixels.count))))
    }

    @Test func namesAndFilenamesAreQuotedAndEscaped() throws {
        var form = MultipartFormBody(boundary: Self.boundary)
        form.append(name: "a\"b\r\nc", bytes: [0x41], filename: "we\"ird\nname é.png")
        let body = String(decoding: try BodyPlanBytes.materialize(try form.plan()), as: UTF8.self)
        let expected = "--\(Self.boundary)\r\n"
            + "Content-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"we%22ird%0Aname é.png\"\r\n\r\n"
            + "A\r\n--\(Self.boundary)--\r\n"
        #expect(body == expected)
    }

    @Test func emptyFormIsTheClosingDelimiterOnly() throws {
        let form = MultipartFormBody(boundary: Self.boundary)
        #expect(try BodyPlanBytes.materialize(try form.plan()) == Array("--\(Self.boundary)--\r\n".utf8))
    }

    @Test func firstErrorIsDeferredAndWins() throws {
        // Given a missing file, then a directory, then a valid field
        let scratch = try TemporaryDirectory()
        let missing = scratch.path + "/missing.jpg"
        var form = MultipartFormBody(boundary: Self.boundary)
        form.appendFile(name: "a", path: missing)
        form.appendFile(name: "b", path: scratch.path)
        form.append(name: "c", value: "ok")
        // Then plan() throws the first problem, naming the file
        #expect(throws: BodyPlanError.fileIO(path: missing, reason: "No such file or directory")) { try form.plan() }
    }

    @Test func directoryIsRefused() throws {
        let scratch = try TemporaryDirectory()
        var form = MultipartFormBody(boundary: Self.boundary)
        form.appendFile(name: "dir", path: scratch.path)
        #expect(throws: BodyPlanError.fileIO(path: scratch.path, reason: "is a directory, expected a regular file")) {
            try form.plan()
        }
    }

    @Test func lineBreakInPartContentTypeIsRefused() {
        var form = MultipartFormBody(boundary: Self.boundary)
        form.append(name: "x", bytes: [], filename: "x", contentType: "text/plain\r\nX-Evil: 1")
        let error = #expect(throws: BodyPlanError.self) { try form.plan() }
        #expect(error?.description.contains("line break") == true)
    }

    @Test func randomBoundariesAreValidAndFresh() {
        let first = MultipartFormBody.randomBoundary()
        let second = MultipartFormBody.randomBoundary()
        #expect(first != second)
        #expect(MultipartFormBody.isValidBoundary(first))
        #expect(first.count == "assemblyline-".count + 32)
    }

    @Test(arguments: [
        ("abc", true), ("", false), ("a b", true), ("ab ", false), ("a\"b", false),
        (String(repeating: "x", count: 70), true), (String(repeating: "x", count: 71), false),
    ])
    func boundaryGrammar(boundary: String, valid: Bool) {
        #expect(MultipartFormBody.isValidBoundary(boundary) == valid)
    }

    @Test(arguments: [
        ("/a/b/photo.jpeg", "image/jpeg"), ("x.PNG", "image/png"), ("clip.mov", "video/quicktime"),
        ("noext", "application/octet-stream"), (".hidden", "application/octet-stream"), ("a.tar.zip", "application/zip"),
    ])
    func mediaTypes(path: String, type: String) {
        #expect(MediaType.forPath(path) == type)
    }
}
