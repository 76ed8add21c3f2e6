import AssemblyLine
import CMicroHTTPD

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
    private var mode = Mode.awaitingHeaders
    private var body: [UInt8] = []
    /// The answer decided while the body still arrives (too large, or refused by the sink).
    private var rejection: HTTPResponse?
    /// True once a sink got `finish` or refused the body; it is then never told to abort.
    private var sinkSettled = false

    init(target: String) {
        self.target = target
    }

    /// One access-handler call: the headers (first call), a piece of body, or the end of the body.
    func handle(
        core: ServerCore, connection: OpaquePointer, method: String, version: String,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let chunk = UnsafeRawBufferPointer(start: upload, count: upload == nil ? 0 : uploadSize.pointee)
        if case .awaitingHeaders = mode {} else {
            uploadSize.pointee = 0  // every body byte is taken (stored, streamed or discarded)
        }
        switch mode {
        case .awaitingHeaders:
            let request = Self.makeRequest(connection: connection, method: method, target: target, version: version)
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
        guard response.fault != .dropBeforeResponse, let prepared = response.makeMHDResponse() else {
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

    /// Reads the request's headers, peer address and connection number from libmicrohttpd.
    private static func makeRequest(connection: OpaquePointer, method: String, target: String, version: String) -> HTTPRequest {
        var fields: [HTTPHeaders.Field] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
                let fields = context!.assumingMemoryBound(to: [HTTPHeaders.Field].self)
                fields.pointee.append(HTTPHeaders.Field(
                    name: key.map { String(cString: $0) } ?? "", value: value.map { String(cString: $0) } ?? ""))
                return .YES
            }, pointer)
        }
        var peer = (host: "unknown", port: 0)
        if let address = cmhd_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr {
            peer = SocketAddress.describe(address)
        }
        let socketContext = cmhd_connection_info(connection, .CONNECTION_INFO_SOCKET_CONTEXT)?.pointee.socket_context
        return HTTPRequest(
            method: HTTPMethod(rawValue: method), target: target, headers: HTTPHeaders(fields), version: version,
            remoteAddress: peer.host, remotePort: peer.port, connectionID: Int(bitPattern: socketContext))
    }
}

@available(*, unavailable, message: "a request context belongs to its connection thread")
extension RequestContext: Sendable {}
