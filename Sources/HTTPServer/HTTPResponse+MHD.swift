import CMicroHTTPD
import HTTPMessages
#if canImport(Glibc)
import Glibc
#endif

extension HTTPResponse {
    /// Builds libmicrohttpd's response object for this response; the caller queues and destroys it.
    ///
    /// Files go through `MHD_create_response_from_fd_at_offset64` (sendfile where possible) on a
    /// duplicate descriptor that libmicrohttpd closes. A truncated body goes through a content
    /// reader that fails after the allowed bytes, which makes libmicrohttpd close the connection.
    func makeMHDResponse(stopping: @escaping @Sendable () -> Bool) -> OpaquePointer? {
        guard let response = makeBody(stopping: stopping) else { return nil }
        for field in headers where !field.isNamed("Content-Length") {
            // libmicrohttpd refuses headers it manages itself (such as Transfer-Encoding); those are dropped.
            _ = MHD_add_response_header(response, field.name, field.value)
        }
        return response
    }

    private func makeBody(stopping: @escaping @Sendable () -> Bool) -> OpaquePointer? {
        if case let .dropAfterBodyBytes(limit) = fault {
            guard let reader = TruncatingBodyReader(body: body, limit: limit) else { return nil }
            let context = Unmanaged.passRetained(reader).toOpaque()
            let response = MHD_create_response_from_callback(
                bodyLength, 64 * 1024,
                { context, position, buffer, capacity in
                    Unmanaged<TruncatingBodyReader>.fromOpaque(context!).takeUnretainedValue()
                        .read(at: position, into: buffer!, capacity: capacity)
                },
                context,
                { context in Unmanaged<TruncatingBodyReader>.fromOpaque(context!).release() })
            if response == nil {
                Unmanaged<TruncatingBodyReader>.fromOpaque(context).release()
            }
            return response
        }
        switch body {
        case .empty:
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case let .bytes(bytes):
            return bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case let .file(file):
            guard file.length > 0 else { return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) }
            let descriptor = dup(file.descriptor)
            guard descriptor >= 0 else { return nil }
            let response = MHD_create_response_from_fd_at_offset64(file.length, descriptor, file.offset)
            if response == nil {
                close(descriptor)
            }
            return response
        case let .stream(stream):
            let reader = StreamBodyReader(stream: stream, stopping: stopping)
            let context = Unmanaged.passRetained(reader).toOpaque()
            let response = MHD_create_response_from_callback(
                UInt64.max, 16 * 1024,
                { context, _, buffer, capacity in
                    Unmanaged<StreamBodyReader>.fromOpaque(context!).takeUnretainedValue().read(into: buffer!, capacity: capacity)
                },
                context,
                { context in
                    let reader = Unmanaged<StreamBodyReader>.fromOpaque(context!)
                    reader.takeUnretainedValue().stream.close()
                    reader.release()
                })
            if response == nil {
                stream.close()
                Unmanaged<StreamBodyReader>.fromOpaque(context).release()
            }
            return response
        }
    }
}

/// Feeds libmicrohttpd a stream's bytes as they come, and ends the body when the stream or the server does.
///
/// Only libmicrohttpd's thread for the connection calls it, one call at a time (`MHD_SIZE_UNKNOWN` body, chunked).
private final class StreamBodyReader {
    /// libmicrohttpd's `MHD_CONTENT_READER_END_OF_STREAM`, a cast macro Swift does not import.
    private static let endOfStream = -1
    /// How long one wait for the stream lasts before the server's stopping is checked again.
    private static let slice: Duration = .milliseconds(250)

    let stream: any HTTPBodyStream
    private let stopping: @Sendable () -> Bool
    private var pending: [UInt8] = []
    private var sent = 0

    init(stream: any HTTPBodyStream, stopping: @escaping @Sendable () -> Bool) {
        self.stream = stream
        self.stopping = stopping
    }

    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while sent == pending.count {
            guard !stopping(), let next = stream.next(waitingAtMost: Self.slice) else { return Self.endOfStream }
            pending = next
            sent = 0
        }
        let count = min(capacity, pending.count - sent)
        pending.withUnsafeBytes { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + sent, byteCount: count)
        }
        sent += count
        return count
    }
}

/// Feeds libmicrohttpd a body from memory or a file, and fails once `limit` bytes have gone out (a stream cannot be truncated).
///
/// Only libmicrohttpd's thread for the connection calls it, one call at a time.
private final class TruncatingBodyReader {
    /// libmicrohttpd's `MHD_CONTENT_READER_END_WITH_ERROR`, a cast macro Swift does not import.
    private static let endWithError = -2

    private let bytes: [UInt8]
    private let descriptor: Int32
    private let fileOffset: UInt64
    private let limit: UInt64

    init?(body: HTTPResponse.Body, limit: UInt64) {
        switch body {
        case .empty:
            bytes = []
            descriptor = -1
            fileOffset = 0
            self.limit = 0
        case let .bytes(content):
            bytes = content
            descriptor = -1
            fileOffset = 0
            self.limit = min(limit, UInt64(content.count))
        case let .file(file):
            let copy = dup(file.descriptor)
            guard copy >= 0 else { return nil }
            bytes = []
            descriptor = copy
            fileOffset = file.offset
            self.limit = min(limit, file.length)
        case let .stream(stream):
            // A stream has no length to cut short: the fault does not apply, and nothing is answered.
            stream.close()
            return nil
        }
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
        }
    }

    func read(at position: UInt64, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        guard position < limit, capacity > 0 else { return Self.endWithError }
        let count = Int(min(UInt64(capacity), limit - position))
        if descriptor < 0 {
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + Int(position), byteCount: count)
            }
            return count
        }
        let got = pread(descriptor, buffer, count, off_t(fileOffset + position))
        return got > 0 ? got : Self.endWithError
    }
}
