import CMicroHTTPD

/// The bodies of libmicrohttpd's callbacks, reached through the closure pointer each one receives.
extension ServerCore {
    /// The core behind a callback's closure pointer (never nil: the server always passes it).
    static func from(_ context: UnsafeMutableRawPointer?) -> ServerCore {
        Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The URI callback, first for every request: creates its context, which libmicrohttpd keeps in the request slot.
    func requestArrived(target: String) -> UnsafeMutableRawPointer {
        requestsStarted.add(1, ordering: .relaxed)
        return Unmanaged.passRetained(RequestContext(target: target)).toOpaque()
    }

    /// The access handler: headers, body pieces, end of body.
    func access(
        connection: OpaquePointer, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
        requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if requestSlot.pointee == nil {
            requestSlot.pointee = requestArrived(target: "/")
        }
        let context = Unmanaged<RequestContext>.fromOpaque(requestSlot.pointee!).takeUnretainedValue()
        return context.handle(
            core: self, connection: connection, method: String(cString: method), version: String(cString: version),
            upload: upload, uploadSize: uploadSize)
    }

    /// The request-completed callback: settles and releases the request's context.
    func requestEnded(requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>, termination: MHD_RequestTerminationCode) {
        guard let pointer = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue().complete(core: self, termination: termination)
    }

    /// The connection callback: numbers each accepted connection (kept in its socket context) and counts closes.
    func connectionEvent(socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>, event: MHD_ConnectionNotificationCode) {
        if event == .CONNECTION_NOTIFY_STARTED {
            let number = connectionsOpened.add(1, ordering: .relaxed).newValue
            socketContext.pointee = UnsafeMutableRawPointer(bitPattern: number)
        } else {
            connectionsClosed.add(1, ordering: .relaxed)
        }
    }
}
