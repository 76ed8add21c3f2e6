import ConfigFormat
import HTTPMessages

/// Reads a signing service's HTTP answer: a signature when it is exactly right, a typed refusal otherwise.
struct SignerAnswer {
    /// How many characters of a service's reason a message keeps.
    static let reasonLimit = 200

    let response: HTTPResponseInfo
    /// The bearer token sent: a service that echoes it in its reason must not put it in a message.
    let token: String

    /// The signature of `params` in a 2xx answer, after checking the answer echoes `params` byte for byte.
    func signature(for params: String) throws(SigningError) -> String {
        switch response.status {
        case 200...299: break
        case 300...399:
            let location = response.header("Location").map { TransportEndpoint(url: $0).description }
            throw .redirected(status: response.status, location: location)
        case 401: throw .unauthorized(reason: reason)
        case 403: throw .denied(reason: reason)
        case 429: throw .rateLimited(retryAfter: retryAfter)
        default: throw .httpStatus(code: response.status, reason: reason)
        }
        let answer: JSONValue
        do {
            answer = try JSONValue(parsing: response.bodyBytes)
        } catch {
            throw .malformed("expected a JSON object, found a body that is not JSON (\(error))")
        }
        guard let members = answer.objectValue else {
            throw .malformed("expected a JSON object with params and signature")
        }
        guard let echoed = members["params"]?.stringValue else {
            throw .malformed("expected params to be a string")
        }
        guard let signature = members["signature"]?.stringValue else {
            throw .malformed("expected signature to be a string")
        }
        if let offset = Self.firstDifference(Array(params.utf8), Array(echoed.utf8)) {
            throw .tampered(firstDifference: offset)
        }
        if let problem = Self.problem(with: signature) { throw .badSignature(problem) }
        return signature
    }

    /// What is wrong with a signature's form, or nil when it is `sha384:` and 96 lowercase hex digits.
    static func problem(with signature: String) -> String? {
        let prefix = "sha384:"
        guard signature.hasPrefix(prefix) else {
            let named = signature.split(separator: ":", maxSplits: 1).count == 2
            return named ? "it names another algorithm than sha384" : "it has no sha384: prefix"
        }
        let hex = signature.utf8.dropFirst(prefix.utf8.count)
        if hex.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) }) {
            return "its hex digits are uppercase"
        }
        if !hex.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) {
            return "it has a character that is not a hex digit"
        }
        if hex.count != 96 { return "it has \(hex.count) hex digits, not 96" }
        return nil
    }

    /// The first offset where the byte strings differ (or where the shorter ends), nil when equal.
    static func firstDifference(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int? {
        for (index, pair) in zip(lhs, rhs).enumerated() where pair.0 != pair.1 { return index }
        return lhs.count == rhs.count ? nil : min(lhs.count, rhs.count)
    }

    /// The service's reason: `reason`, `message` or `error` of a JSON answer, else the body text, on one
    /// line, the token replaced by `[token]` before it is cut (a cut must not leave part of it).
    private var reason: String {
        let body = response.bodyBytes
        let members = (try? JSONValue(parsing: body))?.objectValue
        let said = ["reason", "message", "error"].lazy.compactMap { members?[$0]?.stringValue }.first
        let text = said ?? String(String(decoding: body, as: UTF8.self).drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        return RemoteText.escaped(text.replacing(token, with: "[token]"), limit: Self.reasonLimit)
    }

    /// `Retry-After` in seconds (the date form is not used by signing services).
    private var retryAfter: Duration? {
        response.header("Retry-After").flatMap { Int($0.trimmingWhitespace()) }.map { .seconds($0) }
    }
}
