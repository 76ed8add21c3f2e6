import AssemblyLine
import CurlTransport
import Foundation
import TestSupport
import Testing

/// TLS verification is always on: an untrusted or misnamed certificate fails with `.tls`; a CA bundle can
/// make a certificate trusted, never verification optional.
@Suite(.timeLimit(.minutes(3))) struct CurlTransportTLSTests {
    let transport = CurlTransport()

    @Test func certificateVerificationCannotBeBypassedButCanBeTrusted() async throws {
        // Given an HTTPS server whose self-signed certificate names 127.0.0.1
        let scratch = try TemporaryDirectory()
        let pair = try await SelfSignedCertificate.make(in: scratch.path, name: "loopback", subjectAltName: "IP:127.0.0.1")
        let server = try await TestServer.start(tls: (pair.certificate, pair.key))
        let url = server.url("/echo")
        let endpoint = "https://127.0.0.1:\(server.port)"

        // When the system's CAs are trusted, the certificate is refused
        do {
            _ = try await transport.send(.get(url))
            Issue.record("an untrusted certificate was accepted")
        } catch {
            guard case .tls(endpoint, _) = error else { Issue.record("expected .tls, got \(error)"); return }
        }

        // When the certificate itself is the CA bundle, the exchange succeeds
        let trusted = HTTPTransferOptions(caBundlePath: pair.certificate)
        let response = try await transport.send(.get(url), options: trusted)
        #expect(response.status == 200)
    }

    @Test func aRedirectNeverTakesHTTPSToPlainHTTP() async throws {
        // Given a trusted HTTPS server and a plain one
        let scratch = try TemporaryDirectory()
        let pair = try await SelfSignedCertificate.make(in: scratch.path, name: "loopback", subjectAltName: "IP:127.0.0.1")
        let secure = try await TestServer.start(tls: (pair.certificate, pair.key))
        let plain = try await TestServer.start()
        let options = HTTPTransferOptions(followRedirects: true, caBundlePath: pair.certificate)
        // Then a redirect within https is followed, and one to http is not
        let within = try await transport.send(.get(secure.url("/redirect?to=/echo")), options: options)
        #expect(within.status == 200)
        let target = plain.url("/echo").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(.get(secure.url("/redirect?to=\(target)")), options: options)
        }
        #expect(error?.isRetryable == false)
    }

    @Test func hostNameIsVerified() async throws {
        // Given a trusted certificate for another name
        let scratch = try TemporaryDirectory()
        let pair = try await SelfSignedCertificate.make(in: scratch.path, name: "other", subjectAltName: "DNS:example.com")
        let server = try await TestServer.start(tls: (pair.certificate, pair.key))
        // Then it is refused for 127.0.0.1
        do {
            _ = try await transport.send(.get(server.url("/echo")), options: HTTPTransferOptions(caBundlePath: pair.certificate))
            Issue.record("a certificate for example.com was accepted for 127.0.0.1")
        } catch {
            guard case .tls = error else { Issue.record("expected .tls, got \(error)"); return }
        }
    }

    @Test func missingCABundleIsATLSError() async throws {
        let scratch = try TemporaryDirectory()
        let pair = try await SelfSignedCertificate.make(in: scratch.path, name: "loopback", subjectAltName: "IP:127.0.0.1")
        let server = try await TestServer.start(tls: (pair.certificate, pair.key))
        let options = HTTPTransferOptions(caBundlePath: scratch.path + "/missing.pem")
        do {
            _ = try await transport.send(.get(server.url("/echo")), options: options)
            Issue.record("a missing CA bundle was accepted")
        } catch {
            guard case .tls = error else { Issue.record("expected .tls, got \(error)"); return }
        }
    }
}
