import CMicroHTTPD
import HTTPMessages
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One request's state between libmicrohttpd's calls: the handler's plan, the body so far, the outcome.
///
/// Created by the URI callback when the request line arrives, handed back by libmicrohttpd on
/// every access-handler call for that request, and released by the request-completed callback.
/// All of these run on the request's connection thread, one after another, so it needs no lock.
final class RequestContext {
    private enum Mode {
        case awaitingHeaders
        /// Answer once the (empty) body is read, which keeps the connection open for the next request.
        case answerAfterBody(HTTPResponse)
        case buffering(HTTPRequest, limit: Int, tooLarge: HTTPResponse, then: (HTTPRequest, [UInt8]) -> HTTPResponse)
        case streaming(any HTTPBodySink)
        case answered
    }

    private let target: String
    /// The address of the NUL that ends `target` in libmicrohttpd's read buffer, when known.
    private let targetEnd: Int?
    private var mode = Mode.awaitingHeaders
    private var body: [UInt8] = []
    /// The answer decided while the body still arrives (too large, or refused by the sink).
    private var rejection: HTTPResponse?
    /// True once a sink got `finish` or refused the body; it is then never told to abort.
    private var sinkSettled = false

    init(target: String, targetEnd: UnsafePointer<CChar>?) {
        self.target = target
        self.targetEnd = targetEnd.map { Int(bitPattern: $0) }
    }

    /// One access-handler call: the headers (first call), a piece of body, or the end of the body.
    func handle(
        core: ServerCore, connection: OpaquePointer, method: String, version: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let chunk = UnsafeRawBufferPointer(start: upload, count: upload == nil ? 0 : uploadSize.pointee)
        if case .awaitingHeaders = mode {} else {
            uploadSize.pointee = 0  // every body byte is taken (stored, streamed or discarded)
        }
        switch mode {
        case .awaitingHeaders:
            let (request, folded) = Self.makeRequest(
                connection: connection, method: method, target: target, version: String(cString: version))
            core.watchdog.headArrived(request.connectionID)
            // libmicrohttpd puts the version right after the target's end; a NUL inside the target ends the C string earlier.
            let targetCut = targetEnd.map { $0 + 1 != Int(bitPattern: version) && version.pointee != 0 } ?? false
            if let malformed = MalformedHead.check(
                request, targetCut: targetCut, folded: folded, singletons: core.singletonHeaders) {
                return answer(malformed.response, core: core, connection: connection)
            }
            switch core.handler.plan(for: request) {
            case let .respond(response):
                // An answer queued before the body is read makes libmicrohttpd close the connection
                // afterwards; that is right when a body is coming, and wasteful for a bodiless request.
                guard request.contentLength ?? 0 > 0 || request.headers["Transfer-Encoding"] != nil else {
                    mode = .answerAfterBody(response)
                    return .YES
                }
                return answer(response, core: core, connection: connection)
            case let .buffer(limit, tooLarge, then):
                if let length = request.contentLength, length > UInt64(max(0, limit)) {
                    return answer(tooLarge, core: core, connection: connection)
                }
                mode = .buffering(request, limit: limit, tooLarge: tooLarge, then: then)
            case let .stream(sink):
                mode = .streaming(sink)
            }
            return .YES
        case let .answerAfterBody(response):
            return chunk.isEmpty ? answer(response, core: core, connection: connection) : .YES
        case let .buffering(request, limit, tooLarge, then):
            guard chunk.isEmpty else {
                if rejection == nil {
                    if body.count + chunk.count > limit {
                        rejection = tooLarge
                        body = []
                    } else {
                        body.append(contentsOf: chunk)
                    }
                }
                return .YES
            }
            let response = rejection ?? then(request, body)
            body = []
            return answer(response, core: core, connection: connection)
        case let .streaming(sink):
            guard chunk.isEmpty else {
                if rejection == nil {
                    do {
                        try sink.receive(chunk)
                    } catch {
                        rejection = error.response
                        sinkSettled = true
                    }
                }
                return .YES
            }
            sinkSettled = true
            return answer(rejection ?? sink.finish(), core: core, connection: connection)
        case .answered:
            return .YES
        }
    }

    /// The request-completed callback: counts the outcome and tells an unfinished sink its body will not come.
    func complete(core: ServerCore, termination: MHD_RequestTerminationCode) {
        if termination == .REQUEST_TERMINATED_COMPLETED_OK {
            core.requestsCompleted.add(1, ordering: .relaxed)
        } else {
            core.requestsFailed.add(1, ordering: .relaxed)
        }
        if case let .streaming(sink) = mode, !sinkSettled {
            sinkSettled = true
            // Stopping shuts the sockets down, so a stopped upload usually ends with a read error.
            sink.abort(core.stopping.load(ordering: .relaxed) ? .serverStopped : Self.abortReason(termination))
        }
        mode = .answered
    }

    private func answer(_ response: HTTPResponse, core: ServerCore, connection: OpaquePointer) -> MHD_Result {
        mode = .answered
        if let delay = response.delay {
            core.pause(for: delay)
        }
        guard response.fault != .dropBeforeResponse,
              let prepared = response.makeMHDResponse(stopping: { core.stopping.load(ordering: .relaxed) }) else {
            return .NO
        }
        defer { MHD_destroy_response(prepared) }
        return MHD_queue_response(connection, UInt32(clamping: response.status), prepared)
    }

    private static func abortReason(_ termination: MHD_RequestTerminationCode) -> HTTPAbortReason {
        switch termination {
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: return .timedOut
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: return .serverStopped
        default: return .clientDisconnected
        }
    }

    /// Reads the request's headers, peer address and connection number from libmicrohttpd, and
    /// whether a header field was glued from an obs-fold line.
    ///
    /// libmicrohttpd 0.9.75 keeps each field in its read buffer as `name NUL [spaces] value`,
    /// so a value starts one byte after its name's end plus the spaces it skipped. An obs-fold
    /// line is appended to a copy of the name made elsewhere (`process_broken_line` in
    /// `connection.c`), so the value no longer follows its name: that is how a fold shows.
    private static func makeRequest(
        connection: OpaquePointer, method: String, target: String, version: String
    ) -> (HTTPRequest, folded: Bool) {
        var scan = (fields: [HTTPHeader](), folded: false)
        withUnsafeMutablePointer(to: &scan) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
                let scan = context!.assumingMemoryBound(to: (fields: [HTTPHeader], folded: Bool).self)
                scan.pointee.fields.append(HTTPHeader(
                    name: key.map { String(cString: $0) } ?? "", value: value.map { String(cString: $0) } ?? ""))
                if let key, let value, !RequestContext.follows(value, key) {
                    scan.pointee.folded = true
                }
                return .YES
            }, pointer)
        }
        var peer = (host: "unknown", port: 0)
        if let address = cmhd_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr {
            peer = SocketAddress.describe(address)
        }
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: method), target: target, headers: HTTPHeaders(scan.fields), version: version,
            remoteAddress: peer.host, remotePort: peer.port, connectionID: ServerCore.number(of: connection))
        return (request, scan.folded)
    }

    /// True when `value` starts right after `key`'s terminating NUL and the spaces or tabs that follow it.
    private static func follows(_ value: UnsafePointer<CChar>, _ key: UnsafePointer<CChar>) -> Bool {
        let keyEnd = key + strlen(key)
        let gap = keyEnd.distance(to: value)
        guard (1...256).contains(gap) else { return false }
        return (1..<gap).allSatisfy { keyEnd[$0] == 0x20 || keyEnd[$0] == 0x09 }
    }
}

@available(*, unavailable, message: "a request context belongs to its connection thread")
extension RequestContext: Sendable {}
