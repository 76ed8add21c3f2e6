/// The certificate chain and private key an ``HTTPServer`` serves HTTPS with, as PEM text.
package struct HTTPServerTLS: Sendable {
    /// The server's certificate, followed by any intermediate certificates.
    package var certificatePEM: String
    /// The certificate's private key, unencrypted.
    package var keyPEM: String

    package init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }
}
