import AssemblyLine
package import Foundation
package import HTTPServer

/// The reference signing backend: an HTTP server on libmicrohttpd that signs only what its ``SigningPolicy`` allows.
///
/// ```swift
/// let server = try SignServer(policy: policy, secret: secret, port: 0)
/// print("listening on \(server.baseURL)")   // POST \(server.signURL)
/// server.stop()
/// ```
/// See docs/signing.md for the contract, the policy file and the answers.
package final class SignServer: Sendable {
    /// The most connections open at once (one thread each).
    package static let maxConnections = 512
    /// The most connections from one client address.
    package static let maxConnectionsPerAddress = 128

    private let server: HTTPServer

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - secret: the Auth Secret, read by the caller from the policy's `secret_env` or `secret_file`.
    ///   - host: a numeric address or `localhost`; loopback by default.
    ///   - port: 0 lets the system choose (read it back from ``port``).
    ///   - tls: the certificate and key to serve HTTPS with; plain HTTP when nil.
    ///   - log: receives one line per decision; standard error by default.
    ///   - connectionLog: receives libmicrohttpd's own messages (refused connections, broken ones), at most one a second.
    ///   - now: the clock for expiries, nonces and rates.
    /// - Throws: ``HTTPServerError`` when the address is invalid or cannot be bound.
    package init(
        policy: SigningPolicy, secret: String, host: String = "127.0.0.1", port: UInt16 = 0, tls: HTTPServerTLS? = nil,
        log: @escaping @Sendable (String) -> Void = SignServer.standardErrorLog,
        connectionLog: @escaping @Sendable (String) -> Void = SignServer.standardErrorLog,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(HTTPServerError) {
        let service = SignService(policy: policy, secret: secret, log: log, now: now)
        let configuration = HTTPServerConfiguration(
            host: host, port: port, maxConnections: Self.maxConnections, maxConnectionsPerAddress: Self.maxConnectionsPerAddress,
            idleTimeout: .seconds(30), requestHeadTimeout: .seconds(10), tls: tls,
            log: { connectionLog("sign-server: http: \($0)") })
        server = try HTTPServer(configuration: configuration, handler: service)
    }

    /// `http://HOST:PORT`, or `https://` with TLS.
    package var baseURL: String { server.baseURL }
    /// `<baseURL>/sign`, where signers post.
    package var signURL: String { server.baseURL + "/sign" }
    /// The bound port.
    package var port: UInt16 { server.port }

    /// Stops listening and waits for requests in progress to end; calling it again does nothing.
    package func stop() {
        server.stop()
    }

    /// Writes a line to standard error in one `write`, so that lines of concurrent requests never mix.
    package static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
