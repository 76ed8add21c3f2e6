/// Why a call to the Assembly API did not give what was asked: Transloadit's error code, or the transport's.
package struct TransloaditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Transloadit's `error` (`RATE_LIMIT_REACHED`, `IMAGE_RESIZE_ERROR`, ...), `HTTP_<status>`, or `TRANSPORT_<kind>`.
    package var code: String
    package var message: String
    /// The HTTP status, when an answer came.
    package var httpStatus: Int?
    /// How long the service asked to wait (`info.retryIn`, `Retry-After`).
    package var retryIn: Duration?
    /// True when trying again may help: transport failures, 5xx, rate limits.
    package var isRetryable: Bool

    package init(code: String, message: String, httpStatus: Int? = nil, retryIn: Duration? = nil, isRetryable: Bool) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.retryIn = retryIn
        self.isRetryable = isRetryable
    }

    /// Codes that mean "slow down", whatever status they came with.
    static let rateLimitCodes: Set<String> = ["RATE_LIMIT_REACHED", "ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED"]

    /// The error of an answer: its JSON `error` when it has one, else its status; retryable for 5xx, 413, 429 and rate limits.
    init(status: Int, body: AssemblyStatus?, retryAfter: String?) {
        let code = body?.error ?? "HTTP_\(status)"
        let hint = body?.retryIn.map { Duration.milliseconds(Int64($0 * 1_000)) } ?? retryAfter.flatMap(Int64.init).map { .seconds($0) }
        self.init(code: code, message: body?.message ?? body?.reason ?? "the service answered HTTP \(status)",
                  httpStatus: status, retryIn: hint,
                  isRetryable: status >= 500 || status == 429 || status == 413 || Self.rateLimitCodes.contains(code))
    }

    /// The error of a transfer that got no complete answer.
    init(_ error: TransportError) {
        self.init(code: Self.code(of: error), message: error.description, isRetryable: error.isRetryable)
    }

    /// `TRANSPORT_CONNECT`, `TRANSPORT_TIMEOUT`, ... for the ledger and reports.
    static func code(of error: TransportError) -> String {
        switch error {
        case .invalidRequest: "TRANSPORT_INVALID_REQUEST"
        case .resolve: "TRANSPORT_RESOLVE"
        case .connect: "TRANSPORT_CONNECT"
        case .timeout: "TRANSPORT_TIMEOUT"
        case .tls: "TRANSPORT_TLS"
        case .reset: "TRANSPORT_RESET"
        case .cancelled: "TRANSPORT_CANCELLED"
        case .tooLarge: "TRANSPORT_TOO_LARGE"
        case .fileIO: "TRANSPORT_FILE_IO"
        case let .httpStatus(_, code, _): "HTTP_\(code)"
        case .failed: "TRANSPORT_FAILED"
        }
    }

    /// True for the answers that ask the client to slow down.
    package var isRateLimit: Bool { Self.rateLimitCodes.contains(code) || httpStatus == 429 }

    package var description: String { "\(code): \(message)" }

    /// The reason the ledger keeps for a shard or file that failed with this error.
    package var failureReason: FailureReason {
        FailureReason(code: code, message: message, isRetryable: isRetryable)
    }
}
