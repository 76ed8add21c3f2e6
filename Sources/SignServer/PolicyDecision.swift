package import Foundation

/// A policy's answer to one params string: sign it, or refuse with a reason.
package enum PolicyDecision: Sendable, Hashable {
    /// Everything is allowed; the service must still claim the nonce until the expiry before signing.
    case allow(nonce: String, expires: Date)
    case refuse(PolicyRefusal)
}
