package import Foundation

/// A policy's answer to one params string: sign it, or refuse with a reason.
package enum PolicyDecision: Sendable, Hashable {
    /// Everything is allowed for this kind of request; the service must still claim the nonce until the expiry before signing.
    case allow(nonce: String, expires: Date, kind: ParamsKind)
    case refuse(PolicyRefusal)
}
