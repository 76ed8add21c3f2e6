import Foundation
import HTTPServer
import TestSupport
import Testing

extension HTTPServerSuite {
    /// With a certificate and key the server speaks HTTPS only; a pair libmicrohttpd refuses is its own error.
    @Suite struct HTTPServerTLSTests {
        @Test func servesHTTPSToAClientThatTrustsTheCertificateAndNothingPlain() async throws {
            // Given a server with a self-signed certificate for 127.0.0.1
            let scratch = try TemporaryDirectory()
            let pair = try await SelfSignedCertificate.make(in: scratch.path, name: "loopback", subjectAltName: "IP:127.0.0.1")
            let tls = HTTPServerTLS(certificatePEM: try String(contentsOfFile: pair.certificate, encoding: .utf8),
                                    keyPEM: try String(contentsOfFile: pair.key, encoding: .utf8))
            let server = try HTTPServer(configuration: .init(tls: tls)) { request in .respond(.text("secure \(request.path)\n")) }
            defer { server.stop() }
            #expect(server.baseURL == "https://127.0.0.1:\(server.port)")

            // Then a client trusting the certificate gets the answer over TLS
            let trusted = try await curl(["--cacert", pair.certificate, server.baseURL + "/hello"])
            #expect(trusted.status == 0, "\(trusted.errors)")
            #expect(trusted.output == "secure /hello\n")
            // And a client trusting only the system's CAs refuses it (curl exit 60: peer certificate not verified)
            let untrusted = try await curl([server.baseURL + "/hello"])
            #expect(untrusted.status == 60, "\(untrusted.errors)")
            // And plain HTTP on the same port gets no answer
            let plain = try await curl(["http://127.0.0.1:\(server.port)/hello"])
            #expect(plain.status != 0 && plain.output.isEmpty)
        }

        @Test func aKeyThatIsNotTheCertificatesOrNotPEMIsRefusedAsTLS() async throws {
            let scratch = try TemporaryDirectory()
            let pair = try await SelfSignedCertificate.make(in: scratch.path, name: "one", subjectAltName: "IP:127.0.0.1")
            let other = try await SelfSignedCertificate.make(in: scratch.path, name: "other", subjectAltName: "IP:127.0.0.1")
            let certificate = try String(contentsOfFile: pair.certificate, encoding: .utf8)
            for key in ["not a key", try String(contentsOfFile: other.key, encoding: .utf8)] {
                #expect {
                    _ = try HTTPServer(configuration: .init(tls: HTTPServerTLS(certificatePEM: certificate, keyPEM: key))) { _ in
                        .respond(.text("never"))
                    }
                } throws: { error in
                    guard case let .tlsRefused(reason) = error as? HTTPServerError else { return false }
                    return reason.contains("TLS")
                }
            }
        }
    }
}
