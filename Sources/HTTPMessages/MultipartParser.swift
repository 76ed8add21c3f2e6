#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `multipart/form-data` body (RFC 7578) incrementally, from chunks of any size.
///
/// Feed the body as it arrives; boundaries may be split anywhere across chunks. Fields (parts
/// without a filename) are collected up to ``Limits/maxFieldBytes`` and handed over whole; file
/// parts are streamed to the sink in pieces (each at most one input chunk plus the boundary's
/// length), so a file of any size passes through a few kilobytes of memory. The parser keeps at most one boundary's length of body bytes (or one part's header
/// block) between calls. A preamble before the first boundary and an epilogue after the last are
/// ignored, as RFC 2046 §5.1.1 asks.
///
/// ```swift
/// var parser = try MultipartParser(contentType: request.headers["Content-Type"] ?? "")
/// try chunk.withUnsafeBytes { try parser.feed($0, into: &sink) }   // for every chunk
/// try parser.finish()                                              // at the end of the body
/// ```
///
/// After any error the parser is spent: start a new one for a new body.
package struct MultipartParser: Sendable {
    /// Bounds that keep a hostile body from using unbounded memory.
    package struct Limits: Sendable, Hashable {
        /// The largest header block of one part.
        package var maxHeaderBytes: Int
        /// The largest value of one field (a part without a filename).
        package var maxFieldBytes: Int
        /// The most parts in one body.
        package var maxParts: Int

        package init(maxHeaderBytes: Int = 16 * 1024, maxFieldBytes: Int = 1 << 20, maxParts: Int = 10_000) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxFieldBytes = maxFieldBytes
            self.maxParts = maxParts
        }
    }

    private enum State: Sendable, Hashable {
        case preamble, afterDelimiter, headers, body, epilogue
    }

    private enum Match {
        case found(Int), partial(Int), absent
    }

    /// The longest run of spaces and tabs accepted between a boundary and its line end.
    private static let maxTransportPadding = 256
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")

    /// The boundary, as given by the `Content-Type`.
    package let boundary: String
    package let limits: Limits
    /// `CRLF--boundary`: what ends every part.
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Bytes carried over to the next chunk: a partial delimiter, or an unfinished header block.
    /// It starts as a virtual CRLF so that a body beginning with `--boundary` matches the delimiter.
    private var pending: [UInt8] = [carriageReturn, lineFeed]
    /// How many bytes of `pending` plus the chunks before have been consumed (virtual CRLF included).
    private var consumed = 0
    private var partCount = 0
    private var currentPart: MultipartPart?
    private var fieldBytes: [UInt8] = []

    /// A parser for a body delimited by `boundary`.
    package init(boundary: String, limits: Limits = Limits()) {
        self.boundary = boundary
        self.limits = limits
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// A parser for a body whose `Content-Type` is `contentType`, which must be multipart/form-data with a boundary.
    package init(contentType: String, limits: Limits = Limits()) throws(FormDataError) {
        guard let mediaType = MediaType(parsing: contentType), mediaType.essence == "multipart/form-data" else {
            throw .notMultipart(contentType: contentType)
        }
        guard let boundary = mediaType.parameter("boundary"), (1...70).contains(boundary.utf8.count),
              !boundary.contains(where: { $0 == "\r" || $0 == "\n" }) else {
            throw .invalidBoundary(contentType: contentType)
        }
        self.init(boundary: boundary, limits: limits)
    }

    /// True once the closing boundary has been read.
    package var isComplete: Bool { state == .epilogue }

    /// Reads the next bytes of the body, calling `sink` for every field and file piece they complete.
    ///
    /// - Throws: ``FormDataError`` for a malformed body or an exceeded limit, or what `sink` throws.
    package mutating func feed<Sink: MultipartSink>(_ bytes: UnsafeRawBufferPointer, into sink: inout Sink) throws {
        if pending.isEmpty {
            let used = try process(bytes, into: &sink)
            consumed += used
            if used < bytes.count {
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...]))
            }
        } else {
            var work: [UInt8] = []
            swap(&work, &pending)
            work.append(contentsOf: bytes)
            let used = try work.withUnsafeBytes { try process($0, into: &sink) }
            consumed += used
            work.removeFirst(used)
            pending = work
        }
    }

    /// Checks that the body ended with its closing boundary.
    ///
    /// - Throws: ``FormDataError/truncated(offset:)`` when it did not, for example when a client stopped mid-file.
    package func finish() throws(FormDataError) {
        guard state == .epilogue else {
            throw .truncated(offset: max(0, consumed + pending.count - 2))
        }
    }

    // MARK: - Scanning

    /// Consumes what it can of `data`; returns how many bytes it used. The rest must be offered again with more.
    private mutating func process<Sink: MultipartSink>(_ data: UnsafeRawBufferPointer, into sink: inout Sink) throws -> Int {
        var position = 0
        while true {
            switch state {
            case .preamble:
                switch findDelimiter(in: data, from: position) {
                case let .found(at):
                    position = at + delimiter.count
                    state = .afterDelimiter
                case let .partial(at):
                    return at
                case .absent:
                    return data.count
                }
            case .afterDelimiter:
                guard let next = try readDelimiterEnd(data, from: position) else { return position }
                position = next
            case .headers:
                guard let next = try readHeaders(data, from: position, into: &sink) else { return position }
                position = next
            case .body:
                switch findDelimiter(in: data, from: position) {
                case let .found(at):
                    try emit(UnsafeRawBufferPointer(rebasing: data[position..<at]), into: &sink)
                    try endPart(into: &sink)
                    position = at + delimiter.count
                    state = .afterDelimiter
                case let .partial(at):
                    try emit(UnsafeRawBufferPointer(rebasing: data[position..<at]), into: &sink)
                    return at
                case .absent:
                    try emit(UnsafeRawBufferPointer(rebasing: data[position...]), into: &sink)
                    return data.count
                }
            case .epilogue:
                return data.count
            }
        }
    }

    /// After a delimiter: `--` closes the body; otherwise optional padding and CRLF start a part.
    /// Returns the position after what it read, or nil when more bytes are needed.
    private mutating func readDelimiterEnd(_ data: UnsafeRawBufferPointer, from start: Int) throws(FormDataError) -> Int? {
        guard data.count - start >= 2 else { return nil }
        if data[start] == UInt8(ascii: "-"), data[start + 1] == UInt8(ascii: "-") {
            state = .epilogue
            return start + 2
        }
        var cursor = start
        while cursor < data.count, data[cursor] == UInt8(ascii: " ") || data[cursor] == UInt8(ascii: "\t") {
            cursor += 1
            guard cursor - start <= Self.maxTransportPadding else { throw .malformedDelimiter(offset: bodyOffset(cursor)) }
        }
        guard data.count - cursor >= 2 else { return nil }
        guard data[cursor] == Self.carriageReturn, data[cursor + 1] == Self.lineFeed else {
            throw .malformedDelimiter(offset: bodyOffset(cursor))
        }
        partCount += 1
        guard partCount <= limits.maxParts else { throw .tooManyParts(limit: limits.maxParts) }
        state = .headers
        return cursor + 2
    }

    /// Reads a part's header block up to its empty line and starts the part.
    /// Returns the position of the part's first body byte, or nil when more bytes are needed.
    private mutating func readHeaders<Sink: MultipartSink>(
        _ data: UnsafeRawBufferPointer, from start: Int, into sink: inout Sink
    ) throws -> Int? {
        guard data.count - start >= 2 else { return nil }
        let blockEnd: Int
        let bodyStart: Int
        if data[start] == Self.carriageReturn, data[start + 1] == Self.lineFeed {
            blockEnd = start
            bodyStart = start + 2
        } else if let end = find([13, 10, 13, 10], in: data, from: start) {
            blockEnd = end
            bodyStart = end + 4
        } else {
            guard data.count - start <= limits.maxHeaderBytes else {
                throw FormDataError.headerTooLarge(part: partCount, limit: limits.maxHeaderBytes)
            }
            return nil
        }
        guard blockEnd - start <= limits.maxHeaderBytes else {
            throw FormDataError.headerTooLarge(part: partCount, limit: limits.maxHeaderBytes)
        }
        let part = try MultipartPart.parse(headerBlock: ArraySlice(data[start..<blockEnd]), index: partCount)
        currentPart = part
        fieldBytes = []
        if part.isFile {
            try sink.beginFile(part)
        }
        state = .body
        return bodyStart
    }

    /// Passes body bytes of the current part on: to the sink for a file, to the field buffer otherwise.
    private mutating func emit<Sink: MultipartSink>(_ bytes: UnsafeRawBufferPointer, into sink: inout Sink) throws {
        guard !bytes.isEmpty, let part = currentPart else { return }
        if part.isFile {
            try sink.receiveFileData(bytes)
        } else {
            guard fieldBytes.count + bytes.count <= limits.maxFieldBytes else {
                throw FormDataError.fieldTooLarge(name: part.name, limit: limits.maxFieldBytes)
            }
            fieldBytes.append(contentsOf: bytes)
        }
    }

    private mutating func endPart<Sink: MultipartSink>(into sink: inout Sink) throws {
        guard let part = currentPart else { return }
        currentPart = nil
        if part.isFile {
            try sink.endFile()
        } else {
            guard let value = String(validating: fieldBytes, as: UTF8.self) else {
                throw FormDataError.fieldNotUTF8(name: part.name)
            }
            fieldBytes = []
            try sink.receiveField(FormField(name: part.name, value: value), part: part)
        }
    }

    /// Finds the delimiter from `start`: a full match, a match cut off by the end of `data`, or none.
    private func findDelimiter(in data: UnsafeRawBufferPointer, from start: Int) -> Match {
        guard start < data.count, let base = data.baseAddress else { return .absent }
        return delimiter.withUnsafeBytes { pattern in
            var index = start
            while index < data.count {
                guard let hit = memchr(base + index, Int32(Self.carriageReturn), data.count - index) else {
                    return .absent
                }
                let candidate = base.distance(to: UnsafeRawPointer(hit))
                let available = min(pattern.count, data.count - candidate)
                if memcmp(hit, pattern.baseAddress!, available) == 0 {
                    return available == pattern.count ? .found(candidate) : .partial(candidate)
                }
                index = candidate + 1
            }
            return .absent
        }
    }

    /// The first full occurrence of `pattern` in `data` from `start`.
    private func find(_ pattern: [UInt8], in data: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard data.count - start >= pattern.count else { return nil }
        var index = start
        while index <= data.count - pattern.count {
            if data[index] == pattern[0], pattern.indices.allSatisfy({ data[index + $0] == pattern[$0] }) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The offset in the real body (without the virtual leading CRLF) of `position` in the current chunk.
    private func bodyOffset(_ position: Int) -> Int {
        max(0, consumed + position - 2)
    }
}
