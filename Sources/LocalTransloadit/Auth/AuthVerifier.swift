import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import Synchronization

/// Checks the `params` and `signature` of a request against the service's key and secret.
///
/// The checks run in the order of transloadit-api.md §8.3, each with its own code: params present
/// and a JSON object (`NO_PARAMS_FIELD`, `INVALID_PARAMS_FIELD`), `auth.key` present and known
/// (`NO_AUTH_PARAMETER`, `NO_AUTH_KEY_PARAMETER`, `GET_ACCOUNT_UNKNOWN_AUTH_KEY`); then, when
/// signatures are required, `NO_SIGNATURE_FIELD`, `NO_AUTH_EXPIRES_PARAMETER`, the HMAC over the
/// raw params bytes (`INVALID_SIGNATURE`), the expiry (`INVALID_AUTH_EXPIRES_PARAMETER`,
/// `AUTH_EXPIRED`), and for creations the same signed params seen before (`SIGNATURE_REUSE_DETECTED`).
/// A service that requires no signatures still checks them for a request that asks it to: one naming a
/// Template with `require_signature_auth`.
final class AuthVerifier: Sendable {
    /// What a request is for: creations and replays are checked for reuse; the account's requests
    /// (listings, the Template API) are not, since a client may read or delete twice in one second.
    enum Purpose: Sendable {
        case create
        case account
    }

    let credentials: ServiceCredentials
    let requireSignature: Bool
    let detectReuse: Bool
    /// SHA-1 of each signed params string accepted for a creation, with its expiry.
    private let seen = Mutex<[String: Date]>([:])

    init(credentials: ServiceCredentials, requireSignature: Bool, detectReuse: Bool) {
        self.credentials = credentials
        self.requireSignature = requireSignature
        self.detectReuse = detectReuse
    }

    /// The params object of an accepted request, its expiry judged at `now` (the service's clock).
    ///
    /// - Parameter signedIf: whether the params, once read, call for a valid signature although the
    ///   service requires none (a Template's `require_signature_auth`).
    func verify(
        params: String?, signature: String?, purpose: Purpose, now: Date,
        signedIf: ([String: JSONValue]) -> Bool = { _ in false }
    ) throws(APIError) -> [String: JSONValue] {
        guard let params, !params.isEmpty else {
            throw APIError(.noParamsField, status: 400, "No params field was provided.")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: params)
        } catch {
            throw APIError(.invalidParamsField, status: 400, "The params field is not valid JSON.", reason: error.description)
        }
        guard let object = parsed.objectValue else {
            throw APIError(.invalidParamsField, status: 400, "The params field must be a JSON object.")
        }
        guard let auth = object["auth"]?.objectValue else {
            throw APIError(.noAuthParameter, status: 400, "The params have no auth object.")
        }
        guard let key = auth["key"]?.stringValue, !key.isEmpty else {
            throw APIError(.noAuthKeyParameter, status: 400, "The params have no auth.key.")
        }
        guard key == credentials.key else {
            throw APIError(.getAccountUnknownAuthKey, status: 401, "The auth key is not known to this service.")
        }
        guard requireSignature || signedIf(object) else { return object }
        guard let signature, !signature.isEmpty else {
            let what = requireSignature ? "This service" : "The Template these params name"
            throw APIError(.noSignatureField, status: 400, "\(what) requires a signature field.")
        }
        guard let expiresValue = auth["expires"], expiresValue != .null else {
            throw APIError(.noAuthExpiresParameter, status: 400, "The params have no auth.expires.")
        }
        guard HMAC.verifyTransloaditSignature(signature, params: params, secret: credentials.secret) else {
            throw APIError(.invalidSignature, status: 401, "The given signature does not match ours.")
        }
        guard let text = expiresValue.stringValue, let expires = AuthExpiry.parse(text) else {
            throw APIError(
                .invalidAuthExpiresParameter, status: 400,
                "auth.expires must be YYYY/MM/DD HH:MM:SS+00:00 or ISO 8601.")
        }
        guard expires > now else {
            throw APIError(.authExpired, status: 401, "The given auth expires parameter is in the past.")
        }
        if purpose == .create && detectReuse {
            try remember(params, until: expires, now: now)
        }
        return object
    }

    /// Records a signed params string, or refuses it when it was accepted before and has not expired.
    private func remember(_ params: String, until expires: Date, now: Date) throws(APIError) {
        let fingerprint = Hex.encode(Digest.sha1(Array(params.utf8)))
        let reused = seen.withLock { seen -> Bool in
            if seen.count > 10_000 {
                seen = seen.filter { $0.value > now }
            }
            if let until = seen[fingerprint], until > now { return true }
            seen[fingerprint] = expires
            return false
        }
        if reused {
            throw APIError(
                .signatureReuseDetected, status: 403,
                "These signed params were used before; add a fresh auth.nonce to each request.")
        }
    }
}
