import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd: listens on a host and port and answers through an ``HTTPHandler``.
///
/// With ``HTTPServerConfiguration/tls`` it speaks HTTPS only (libmicrohttpd's GnuTLS); ``baseURL`` says which.
///
/// The server runs libmicrohttpd's internal polling thread with one thread per connection, and
/// calls the handler synchronously on the connection's thread (see ``HTTPHandler`` for what that
/// allows). It bounds connections in all and per client address, gives each request head a
/// deadline, and refuses malformed heads itself (``HTTPServerConfiguration``). Bodies are never held in memory unless a handler asks for it with a bound
/// (``HTTPRequestPlan/buffer(limit:tooLarge:then:)``); files are sent from disk.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0)) { request in
///     .respond(.text("hello \(request.path)"))
/// }
/// print(server.baseURL)   // http://127.0.0.1:40123
/// server.stop()
/// ```
///
/// Starting the first server makes the process ignore `SIGPIPE`, so that a client that goes
/// away mid-response cannot kill it.
package final class HTTPServer: Sendable {
    /// The host it listens on, as configured.
    package let host: String
    /// The bound port (the system's choice when the configuration asked for 0).
    package let port: UInt16
    private let core: ServerCore
    /// The PEM text libmicrohttpd was given, kept at its address while the daemon runs.
    private let tlsText: [OwnedCString]
    /// The `MHD_Daemon` pointer's bits, 0 once stopped; swapped atomically so `stop` runs once.
    private let daemonBits: Atomic<Int>

    /// Starts listening.
    ///
    /// - Throws: ``HTTPServerError/invalidHost(_:)``, ``HTTPServerError/tlsRefused(reason:)`` (a certificate
    ///   or key that is not PEM or not a pair) or ``HTTPServerError/startFailed(address:reason:)`` (for example
    ///   when the port is taken).
    package init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws(HTTPServerError) {
        Self.ignoreBrokenPipes
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_POLL.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        let shown = address.isIPv6 ? "[\(configuration.host)]:\(configuration.port)" : "\(configuration.host):\(configuration.port)"
        let tlsText = configuration.tls.map { [OwnedCString($0.keyPEM), OwnedCString($0.certificatePEM)] } ?? []
        if !tlsText.isEmpty {
            guard MHD_is_feature_supported(.FEATURE_TLS) == .YES else {
                throw .startFailed(address: shown, reason: "this libmicrohttpd was built without TLS")
            }
            flags |= MHD_USE_TLS.rawValue
        }
        let core = ServerCore(handler: handler, configuration: configuration)
        let context = Unmanaged.passRetained(core).toOpaque()
        let daemon = address.withSockaddr { sockaddr in
            cmhd_start_daemon(
                flags, configuration.port, sockaddr,
                { context, connection, _, method, version, upload, uploadSize, requestSlot in
                    ServerCore.from(context).access(
                        connection: connection!, method: method!, version: version!, upload: upload,
                        uploadSize: uploadSize!, requestSlot: requestSlot!)
                },
                context,
                UInt32(clamping: configuration.maxConnections),
                UInt32(clamping: configuration.maxConnectionsPerAddress),
                UInt32(clamping: max(1, configuration.idleTimeout.components.seconds)),
                max(8 * 1024, configuration.readBufferSize),
                { context, connection, requestSlot, termination in
                    ServerCore.from(context).requestEnded(
                        connection: connection, requestSlot: requestSlot!, termination: termination)
                },
                { context, connection, socketContext, event in
                    ServerCore.from(context).connectionEvent(
                        connection: connection, socketContext: socketContext!, event: event)
                },
                { context, uri, _ in
                    ServerCore.from(context).requestArrived(uri: uri)
                },
                { context, format, arguments in
                    ServerCore.from(context).record(message: HTTPServer.format(format, arguments!))
                },
                tlsText.first?.pointer, tlsText.last?.pointer)
        }
        guard let daemon else {
            let messages = core.recentMessages.withLock { $0 }
            core.watchdog.stop()
            Unmanaged<ServerCore>.fromOpaque(context).release()
            let reason = messages.isEmpty ? "libmicrohttpd refused to start" : messages.joined(separator: " ")
            // libmicrohttpd sets TLS up before it binds, and says so when the certificate or key is refused.
            if !tlsText.isEmpty, messages.contains(where: { $0.contains("TLS") }) {
                throw .tlsRefused(reason: reason)
            }
            throw .startFailed(address: shown, reason: reason)
        }
        self.host = configuration.host
        self.tlsText = tlsText
        self.port = cmhd_daemon_info(daemon, .DAEMON_INFO_BIND_PORT)?.pointee.port ?? configuration.port
        self.core = core
        self.daemonBits = Atomic(Int(bitPattern: UnsafeRawPointer(daemon)))
    }

    /// Starts listening with a closure as the handler.
    package convenience init(
        configuration: HTTPServerConfiguration, handler: @escaping @Sendable (HTTPRequest) -> HTTPRequestPlan
    ) throws(HTTPServerError) {
        try self.init(configuration: configuration, handler: HTTPClosureHandler(handler))
    }

    deinit {
        stop()
    }

    /// `https` with TLS, else `http`.
    package var scheme: String { tlsText.isEmpty ? "http" : "https" }

    /// `http://HOST:PORT` (`https://` with TLS), with an IPv6 host in brackets.
    package var baseURL: String {
        host.contains(":") && !host.hasPrefix("[") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
    }

    /// What the server has counted so far.
    package var statistics: HTTPServerStatistics {
        core.statistics
    }

    /// Stops listening, closes every connection and waits for their threads to end.
    ///
    /// Delayed answers stop waiting; sinks of unfinished uploads get ``HTTPAbortReason/serverStopped``.
    /// Calling it again does nothing. Never call it (or drop the last reference to the server)
    /// from a handler: it waits for every connection thread, the handler's own included.
    package func stop() {
        let bits = daemonBits.exchange(0, ordering: .acquiringAndReleasing)
        guard bits != 0, let daemon = OpaquePointer(bitPattern: bits) else { return }
        core.stopping.store(true, ordering: .relaxed)
        core.watchdog.stop()
        MHD_stop_daemon(daemon)
        Unmanaged.passUnretained(core).release()
    }

    /// Ignores SIGPIPE once per process: a write to a closed socket must fail, not kill the process.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    /// Formats one of libmicrohttpd's printf-style messages.
    private static func format(_ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer) -> String {
        guard let format else { return "" }
        var buffer = [CChar](repeating: 0, count: 1024)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        return buffer.nulTerminatedString
    }
}
