import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The bodies of libmicrohttpd's callbacks, reached through the closure pointer each one receives.
extension ServerCore {
    /// The core behind a callback's closure pointer (never nil: the server always passes it).
    static func from(_ context: UnsafeMutableRawPointer?) -> ServerCore {
        Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The URI callback, first for every request: creates its context, which libmicrohttpd keeps in the request slot.
    ///
    /// `uri` points into libmicrohttpd's read buffer, where the target ends at the space before
    /// the HTTP version (turned into a NUL); the context keeps where the C string ends so that a
    /// NUL byte inside the target can be told from that end later.
    func requestArrived(uri: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer {
        requestsStarted.add(1, ordering: .relaxed)
        let context: RequestContext
        if let uri {
            context = RequestContext(target: String(cString: uri), targetEnd: uri + strlen(uri))
        } else {
            context = RequestContext(target: "/", targetEnd: nil)
        }
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// The access handler: headers, body pieces, end of body.
    func access(
        connection: OpaquePointer, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
        requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if requestSlot.pointee == nil {
            requestSlot.pointee = requestArrived(uri: nil)
        }
        let context = Unmanaged<RequestContext>.fromOpaque(requestSlot.pointee!).takeUnretainedValue()
        return context.handle(
            core: self, connection: connection, method: String(cString: method), version: version,
            upload: upload, uploadSize: uploadSize)
    }

    /// The request-completed callback: settles and releases the request's context; the connection's next head may begin.
    func requestEnded(
        connection: OpaquePointer?, requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
        termination: MHD_RequestTerminationCode
    ) {
        if let connection {
            watchdog.requestEnded(Self.number(of: connection))
        }
        guard let pointer = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue().complete(core: self, termination: termination)
    }

    /// The connection callback: numbers each accepted connection (kept in its socket context) and counts closes.
    func connectionEvent(
        connection: OpaquePointer?, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
        event: MHD_ConnectionNotificationCode
    ) {
        if event == .CONNECTION_NOTIFY_STARTED {
            let number = connectionsOpened.add(1, ordering: .relaxed).newValue
            socketContext.pointee = UnsafeMutableRawPointer(bitPattern: number)
            if let connection, let socket = cmhd_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd {
                watchdog.opened(number, socket: socket)
            }
        } else {
            watchdog.closed(Int(bitPattern: socketContext.pointee))
            connectionsClosed.add(1, ordering: .relaxed)
        }
    }

    /// The number ``connectionEvent(connection:socketContext:event:)`` gave the connection.
    static func number(of connection: OpaquePointer) -> Int {
        Int(bitPattern: cmhd_connection_info(connection, .CONNECTION_INFO_SOCKET_CONTEXT)?.pointee.socket_context)
    }
}
