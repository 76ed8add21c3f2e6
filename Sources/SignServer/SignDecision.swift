import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import HTTPServer

/// What the signing service answers to one request, and the one log line that records it.
enum SignDecision: Sendable, Hashable {
    case signed(params: String, signature: String, expires: Date, kind: ParamsKind)
    /// No token, a token of another scheme, or an unknown token (401).
    case unauthorized(String)
    /// The caller's token is over its rate (429).
    case rateLimited(retryAfter: Duration)
    /// The request body is not `{"params": "<string>"}` (400).
    case malformedRequest(String)
    /// The body is longer than the service reads (413).
    case tooLarge(limit: Int)
    /// The policy refused the params (400 when malformed, else 403).
    case refused(PolicyRefusal)

    var status: Int {
        switch self {
        case .signed: 200
        case .unauthorized: 401
        case .rateLimited: 429
        case .malformedRequest: 400
        case .tooLarge: 413
        case let .refused(refusal): refusal.isMalformed ? 400 : 403
        }
    }

    /// A stable upper-case code, as in the `error` member of a refusal.
    var code: String {
        switch self {
        case .signed: "SIGNED"
        case .unauthorized: "UNAUTHORIZED"
        case .rateLimited: "RATE_LIMITED"
        case .malformedRequest: "MALFORMED_REQUEST"
        case .tooLarge: "REQUEST_TOO_LARGE"
        case let .refused(refusal): refusal.code
        }
    }

    /// One line saying why.
    var reason: String {
        switch self {
        case let .signed(params, _, expires, kind):
            "signed \(params.utf8.count) bytes of params of \(kind), expiring \(UTCDateTime(expires).iso8601Text)"
        case let .unauthorized(reason): reason
        case let .rateLimited(retryAfter):
            "this token is over the policy's requests_per_minute; retry after \(ConfigUnits.formatDuration(retryAfter))"
        case let .malformedRequest(reason): reason
        case let .tooLarge(limit): "the request body exceeds \(limit) bytes"
        case let .refused(refusal): refusal.reason
        }
    }

    /// The HTTP answer: the params and signature, or `{"error": CODE, "reason": ...}`.
    var response: HTTPResponse {
        var response: HTTPResponse
        switch self {
        case let .signed(params, signature, _, _):
            return .json(JSONValue.object(["params": .string(params), "signature": .string(signature)]).serialized)
        default:
            response = .json(JSONValue.object(["error": .string(code), "reason": .string(reason)]).serialized, status: status)
        }
        switch self {
        case .unauthorized: response.headers.set("WWW-Authenticate", "Bearer")
        case let .rateLimited(retryAfter): response.headers.set("Retry-After", String(retryAfter.components.seconds))
        default: break
        }
        return response
    }

    /// `sign-server: TIME STATUS CODE token=FINGERPRINT from=ADDRESS: reason`; never a token or a secret.
    func logLine(at time: Date, token: String?, remoteAddress: String) -> String {
        "sign-server: \(UTCDateTime(time).iso8601Text) \(status) \(code) token=\(token ?? "-") from=\(remoteAddress): \(reason)"
    }
}
