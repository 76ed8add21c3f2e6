import ConfigFormat

/// Why no signature came back for a params string; never holds a token or a secret.
///
/// Every case fails the shard before any upload. ``isRetryable`` says whether asking again
/// later (with a fresh nonce) can help.
package enum SigningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The signing service refused the params (403), with its reason.
    case denied(reason: String)
    /// The signing service did not accept the bearer token (401), with its reason.
    case unauthorized(reason: String)
    /// The answer was not the JSON object `{"params": ..., "signature": ...}`; says what was wrong.
    case malformed(String)
    /// The params in the answer differ from those sent, first at this UTF-8 byte offset.
    case tampered(firstDifference: Int)
    /// The signature is not `sha384:` followed by 96 lowercase hex digits; says what is wrong.
    case badSignature(String)
    /// The service answered with a redirect, which is never followed; `location` is the target's `scheme://host:port`.
    case redirected(status: Int, location: String?)
    /// The signing URL is `http://` to a host that is not loopback (or not http(s) at all).
    case insecureURL(endpoint: String)
    /// The bearer token cannot be sent as a header; says why without showing it.
    case invalidToken(reason: String)
    /// No answer came back (resolve, connect, TLS, reset, cancelled).
    case unreachable(TransportError)
    /// No complete answer within the timeout.
    case timeout(endpoint: String, after: Duration)
    /// The service said to slow down (429); `retryAfter` when it said for how long.
    case rateLimited(retryAfter: Duration?)
    /// The answer is longer than the bound of bytes a signer reads.
    case tooLarge(limit: Int)
    /// Any other status; `reason` is the service's own, on one line and shortened.
    case httpStatus(code: Int, reason: String)

    /// True when asking again later can help (``Retryability``): timeouts, network trouble, 429, 408 and 5xx.
    /// `SIGNER_UNREACHABLE` when the signer did not answer (or answered 5xx), else `SIGNING_REFUSED`.
    package var failureCode: FailureCode {
        switch self {
        case .unreachable, .timeout: .signerUnreachable
        case let .httpStatus(code, _) where code >= 500: .signerUnreachable
        default: .signingRefused
        }
    }

    package var isRetryable: Bool {
        switch self {
        case .timeout, .rateLimited: true
        case let .unreachable(error): Retryability.isRetryable(error, from: .signer)
        case let .httpStatus(code, _): Retryability.isRetryable(status: code, from: .signer)
        case .denied, .unauthorized, .malformed, .tampered, .badSignature, .redirected, .insecureURL,
             .invalidToken, .tooLarge:
            false
        }
    }

    package var description: String {
        switch self {
        case let .denied(reason):
            "signing: the signing service denied the params: \(reason)"
        case let .unauthorized(reason):
            "signing: the signing service refused the bearer token: \(reason)"
        case let .malformed(what):
            "signing: malformed answer from the signing service: \(what)"
        case let .tampered(offset):
            "signing: the signing service answered with other params than were sent (first difference at byte \(offset)); refusing its signature"
        case let .badSignature(what):
            "signing: bad signature from the signing service: \(what); expected sha384: and 96 lowercase hex digits"
        case let .redirected(status, location):
            "signing: the signing service answered \(status) with a redirect\(location.map { " to \($0)" } ?? ""); redirects are never followed"
        case let .insecureURL(endpoint):
            "signing: refusing to send a token to \(endpoint): expected https://, or http:// to a loopback host"
        case let .invalidToken(reason):
            "signing: the bearer token cannot be sent: \(reason)"
        case let .unreachable(error):
            "signing: the signing service could not be reached: \(error)"
        case let .timeout(endpoint, after):
            "signing: no answer from \(endpoint) within \(ConfigUnits.formatDuration(after))"
        case let .rateLimited(retryAfter):
            "signing: the signing service's rate limit was reached" + (retryAfter.map { "; retry after \(ConfigUnits.formatDuration($0))" } ?? "")
        case let .tooLarge(limit):
            "signing: the signing service's answer exceeds \(limit) bytes"
        case let .httpStatus(code, reason):
            "signing: the signing service answered HTTP \(code)" + (reason.isEmpty ? "" : ": \(reason)")
        }
    }
}
