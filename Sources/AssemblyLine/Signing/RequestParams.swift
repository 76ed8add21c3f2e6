package import ConfigFormat
package import Foundation

/// Builds the `params` of a signed request that creates no Assembly (a Template read or write): `auth` and the request's
/// members, serialized once, as ``AssemblyParams`` does for a creation.
package struct RequestParams: Sendable, Hashable {
    package var key: String
    package var expiresIn: Duration
    /// The request's members besides `auth`: a Template's `name`, `template` and `require_signature_auth`, a list's `page`.
    package var members: [String: JSONValue]

    package init(key: String, expiresIn: Duration, members: [String: JSONValue] = [:]) {
        self.key = key
        self.expiresIn = expiresIn
        self.members = members
    }

    /// The params text, with a fresh nonce from the system's random source.
    package func serialized(now: Date) -> String {
        var generator = SystemRandomNumberGenerator()
        var value = members
        value["auth"] = AssemblyParams.auth(key: key, expiresIn: expiresIn, now: now, nonce: AssemblyParams.nonce(using: &generator))
        return JSONValue.object(value).serialized
    }
}
