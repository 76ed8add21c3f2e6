import AssemblyLine
import Digests

/// A bearer token presented to the service, kept only as its SHA-256: matched against a policy and named in logs by a fingerprint.
struct BearerToken: Sendable, Hashable {
    /// The SHA-256 of the token's bytes.
    let digest: [UInt8]

    /// The token of an `Authorization: Bearer <token>` value (scheme in any case); nil for anything else.
    init?(authorization: String?) {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].drop { $0 == " " }
        guard !token.isEmpty else { return nil }
        digest = Digest.sha256(Array(token.utf8))
    }

    /// The first 8 hex digits of the digest: enough to tell callers apart in a log, useless to an attacker.
    var fingerprint: String {
        String(Hex.encode(digest).prefix(8))
    }

    /// True when the digest equals one of `hashes` (64 hex digits each); every entry is compared, in constant time.
    func isAccepted(by hashes: [String]) -> Bool {
        var accepted = false
        for hash in hashes {
            let expected = Hex.decode(hash) ?? []
            if ConstantTime.equals(digest, expected) { accepted = true }
        }
        return accepted
    }
}
