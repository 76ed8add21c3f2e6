import HTTPMessages

/// Builds multipart bodies byte by byte for the parser tests, independently of the parser.
struct MultipartBodyBuilder {
    enum Part {
        case field(name: String, value: [UInt8])
        case file(name: String, filename: String, contentType: String, data: [UInt8])
    }

    var boundary: String
    var parts: [Part] = []
    var preamble: [UInt8] = []
    var epilogue: [UInt8] = []

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    func build() -> [UInt8] {
        var body = preamble
        for part in parts {
            body += Array("--\(boundary)\r\n".utf8)
            switch part {
            case let .field(name, value):
                body += Array("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8) + value
            case let .file(name, filename, contentType, data):
                body += Array("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\n".utf8)
                body += Array("Content-Type: \(contentType)\r\n\r\n".utf8) + data
            }
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--".utf8) + epilogue
        return body
    }
}

/// What a parser handed to its sink, in order.
enum MultipartEvent: Equatable {
    case field(name: String, value: String)
    case file(name: String, filename: String, contentType: String?, data: [UInt8])
}

/// A sink that records every event and the size of the largest file piece it got.
struct RecordingSink: MultipartSink {
    var events: [MultipartEvent] = []
    var openFile: (part: MultipartPart, data: [UInt8])?
    var pieces = 0
    var largestPiece = 0
    var failOnFileData = false

    struct Refusal: Error {}

    mutating func receiveField(_ field: FormField, part: MultipartPart) throws {
        events.append(.field(name: field.name, value: field.value))
    }

    mutating func beginFile(_ part: MultipartPart) throws {
        openFile = (part, [])
    }

    mutating func receiveFileData(_ chunk: UnsafeRawBufferPointer) throws {
        if failOnFileData { throw Refusal() }
        precondition(!chunk.isEmpty, "the parser must never pass an empty piece")
        openFile?.data += chunk
        pieces += 1
        largestPiece = max(largestPiece, chunk.count)
    }

    mutating func endFile() throws {
        guard let file = openFile else { return }
        events.append(.file(name: file.part.name, filename: file.part.filename ?? "", contentType: file.part.contentType, data: file.data))
        openFile = nil
    }
}

/// Feeds `body` to a fresh parser in chunks of `chunkSize` and returns what the sink saw.
func parse(
    _ body: [UInt8], contentType: String, chunkSize: Int,
    limits: MultipartParser.Limits = .init(), sink: RecordingSink = RecordingSink()
) throws -> RecordingSink {
    var parser = try MultipartParser(contentType: contentType, limits: limits)
    var sink = sink
    var start = 0
    while start < body.count {
        let end = min(start + chunkSize, body.count)
        try body[start..<end].withUnsafeBytes { try parser.feed($0, into: &sink) }
        start = end
    }
    try parser.finish()
    return sink
}
