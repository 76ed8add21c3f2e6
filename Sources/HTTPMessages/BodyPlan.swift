/// One piece of a request body: bytes in memory, or a byte range of a file read only while sending.
package enum BodySegment: Sendable, Hashable {
    case bytes([UInt8])
    /// `length` bytes of the file at `path`, starting at `offset`.
    case file(path: String, offset: Int64, length: Int64)

    /// The number of bytes this segment contributes to the body.
    package var length: Int64 {
        switch self {
        case let .bytes(bytes): Int64(bytes.count)
        case let .file(_, _, length): length
        }
    }
}

/// A request body described before it is sent: ordered segments whose exact length is known without reading any file.
///
/// A transport pulls the bytes through a `BodyPlanReader` in small buffers, so a multipart upload of
/// large files needs neither a temp file nor memory the size of the files, and carries an exact
/// `Content-Length`.
package struct BodyPlan: Sendable, Hashable {
    package private(set) var segments: [BodySegment] = []
    /// The sum of the segments' lengths: the request's `Content-Length`.
    package private(set) var contentLength: Int64 = 0

    package init() {}

    package init(_ segments: [BodySegment]) {
        for segment in segments {
            append(segment)
        }
    }

    /// Adds a segment; adjacent byte segments are merged and empty ones dropped.
    package mutating func append(_ segment: BodySegment) {
        switch segment {
        case let .bytes(bytes):
            guard !bytes.isEmpty else { return }
            if case var .bytes(previous)? = segments.last {
                segments.removeLast()
                previous.append(contentsOf: bytes)
                segments.append(.bytes(previous))
            } else {
                segments.append(segment)
            }
        case let .file(_, offset, length):
            precondition(offset >= 0 && length >= 0, "file segment with negative offset or length")
            guard length > 0 else { return }
            segments.append(segment)
        }
        contentLength += segment.length
    }

    /// Adds bytes.
    package mutating func append(_ bytes: [UInt8]) {
        append(.bytes(bytes))
    }

    /// Adds a string's UTF-8 bytes.
    package mutating func append(_ text: String) {
        append(.bytes(Array(text.utf8)))
    }

    /// Adds `length` bytes of the file at `path` from `offset`; the file is not touched until the body is read.
    package mutating func appendFile(path: String, offset: Int64 = 0, length: Int64) {
        append(.file(path: path, offset: offset, length: length))
    }
}
