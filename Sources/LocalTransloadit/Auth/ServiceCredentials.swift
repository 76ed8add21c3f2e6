import Digests

/// The Auth Key and Auth Secret the service accepts; the secret signs params and is never shown.
package struct ServiceCredentials: Sendable, Hashable, CustomStringConvertible {
    package var key: String
    package var secret: String

    package init(key: String, secret: String) {
        self.key = key
        self.secret = secret
    }

    /// A fresh random pair: a 32-hex key and a 40-hex secret, as Transloadit's look.
    package static func generate() throws(LocalServiceError) -> ServiceCredentials {
        do {
            return ServiceCredentials(key: try SecureRandom.hex(byteCount: 16), secret: try SecureRandom.hex(byteCount: 20))
        } catch {
            throw .randomUnavailable(error.description)
        }
    }

    /// The key only: a secret never reaches a log or a message.
    package var description: String { "key \(key), secret hidden" }
}
