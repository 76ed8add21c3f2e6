package import Foundation

/// The nonces a signing service has signed, each kept until its params expire, so that none is signed twice.
///
/// Memory stays bounded by the rate and the longest expiry: entries whose expiry has passed are
/// dropped as soon as the earliest of them is due.
package struct NonceRegistry: Sendable {
    private var expiries: [String: Date] = [:]
    private var earliest: Date?

    package init() {}

    /// How many nonces are remembered.
    package var count: Int { expiries.count }

    /// Records `nonce` until `expires`; false when it is already recorded and has not expired at `now`.
    package mutating func claim(_ nonce: String, until expires: Date, now: Date) -> Bool {
        prune(now: now)
        guard expiries[nonce] == nil else { return false }
        expiries[nonce] = expires
        earliest = min(earliest ?? expires, expires)
        return true
    }

    private mutating func prune(now: Date) {
        guard let earliest, earliest <= now else { return }
        expiries = expiries.filter { $0.value > now }
        self.earliest = expiries.values.min()
    }
}
