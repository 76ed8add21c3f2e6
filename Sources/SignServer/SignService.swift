import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import HTTPServer
import Synchronization

/// The signing service's request handler: authenticate, pace, parse, apply the policy, claim the nonce, sign.
///
/// `POST /sign` with `Authorization: Bearer <token>` and `{"params": "<string>"}`. The token and
/// rate are checked as soon as the headers arrive, so a refused caller's body is never read. The
/// params string is signed as the exact UTF-8 bytes received and returned unchanged, never
/// re-serialized. Every decision is written to `log` as one line, without the token or the secret.
final class SignService: HTTPHandler {
    /// The largest request body read.
    static let bodyLimit = 64 << 10

    private struct State {
        var nonces = NonceRegistry()
        var rates: TokenRateLimiter
    }

    private let policy: SigningPolicy
    private let secret: String
    private let log: @Sendable (String) -> Void
    private let now: @Sendable () -> Date
    private let state: Mutex<State>

    init(policy: SigningPolicy, secret: String, log: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Date) {
        self.policy = policy
        self.secret = secret
        self.log = log
        self.now = now
        state = Mutex(State(rates: TokenRateLimiter(perMinute: policy.requestsPerMinute)))
    }

    func plan(for request: HTTPRequest) -> HTTPRequestPlan {
        // One exact route: `/sign/`, `//sign` or `/sign?x=1` are other resources, not aliases.
        guard request.target == "/sign" else { return .respond(.json(#"{"error":"NOT_FOUND","reason":"expected POST /sign"}"#, status: 404)) }
        guard request.method == .post else {
            var response = HTTPResponse.json(#"{"error":"METHOD_NOT_ALLOWED","reason":"expected POST /sign"}"#, status: 405)
            response.headers.set("Allow", "POST")
            return .respond(response)
        }
        let token = BearerToken(authorization: request.headers["Authorization"])
        if let early = admission(token) {
            return .respond(record(early, token: token, request: request))
        }
        if let length = request.contentLength, length > UInt64(Self.bodyLimit) {
            return .respond(record(.tooLarge(limit: Self.bodyLimit), token: token, request: request))
        }
        return .stream(SignRequestSink(
            limit: Self.bodyLimit,
            refuse: { [self] in record(.tooLarge(limit: Self.bodyLimit), token: token, request: request) },
            answer: { [self] body in record(decide(body), token: token, request: request) }))
    }

    /// 401 or 429 from the headers alone; nil when the caller may send its params.
    private func admission(_ token: BearerToken?) -> SignDecision? {
        guard let token else { return .unauthorized("expected Authorization: Bearer <token>") }
        guard token.isAccepted(by: policy.tokenHashes) else { return .unauthorized("the token is not one this service accepts") }
        let time = now()
        let admission = state.withLock { $0.rates.admit(Hex.encode(token.digest), now: time) }
        if case let .limited(retryAfter) = admission { return .rateLimited(retryAfter: retryAfter) }
        return nil
    }

    /// The decision on a request body from a known caller within its rate.
    private func decide(_ body: [UInt8]) -> SignDecision {
        let members: [String: JSONValue]
        do {
            guard let object = try JSONValue(parsing: body).objectValue else {
                return .malformedRequest("expected a JSON object {\"params\": \"<string>\"}")
            }
            members = object
        } catch {
            return .malformedRequest("the body is not JSON: \(error)")
        }
        guard members.keys.allSatisfy({ $0 == "params" }), let params = members["params"]?.stringValue else {
            return .malformedRequest("expected a JSON object with only params, a string")
        }
        let time = now()
        switch policy.evaluate(params, now: time) {
        case let .refuse(refusal):
            return .refused(refusal)
        case let .allow(nonce, expires, kind):
            let fresh = state.withLock { $0.nonces.claim(nonce, until: expires, now: time) }
            guard fresh else { return .refused(.replayedNonce) }
            let signature = HMAC.transloaditSignature(params: params, secret: secret, algorithm: .sha384)
            return .signed(params: params, signature: signature, expires: expires, kind: kind)
        }
    }

    private func record(_ decision: SignDecision, token: BearerToken?, request: HTTPRequest) -> HTTPResponse {
        log(decision.logLine(at: now(), token: token?.fingerprint, remoteAddress: request.remoteAddress))
        return decision.response
    }
}
