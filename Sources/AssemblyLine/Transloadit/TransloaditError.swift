/// Why a call to the Assembly API did not give what was asked: Transloadit's error code, or the transport's.
package struct TransloaditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Transloadit's `error` (`RATE_LIMIT_REACHED`, `IMAGE_RESIZE_ERROR`, ...), `HTTP_<status>`, or `TRANSPORT_<kind>`.
    package var code: FailureCode
    package var message: String
    /// The HTTP status, when an answer came.
    package var httpStatus: Int?
    /// How long the service asked to wait (`info.retryIn`, `Retry-After`).
    package var retryIn: Duration?
    /// True when trying again may help: transport failures, 5xx, rate limits.
    package var isRetryable: Bool

    package init(code: FailureCode, message: String, httpStatus: Int? = nil, retryIn: Duration? = nil, isRetryable: Bool) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.retryIn = retryIn
        self.isRetryable = isRetryable
    }

    /// The error of an answer: its JSON `error` when it has one, else its status; retryable when the
    /// body says so (`retryable`), else as ``Retryability`` says for the Assembly API; a rate limit always is.
    init(status: Int, body: AssemblyStatus?, retryAfter: String?) {
        let code = body?.error ?? .http(status)
        self.init(code: code, message: body?.errorText ?? "the service answered HTTP \(status)",
                  httpStatus: status, retryIn: Retryability.wait(retryIn: body?.retryIn, retryAfter: retryAfter),
                  isRetryable: Retryability.isRateLimit(code)
                      || (body?.retryable ?? Retryability.isRetryable(status: status, from: .assemblyAPI)))
    }

    /// The error of a transfer that got no complete answer.
    init(_ error: TransportError) {
        self.init(code: Self.code(of: error), message: error.description, isRetryable: Retryability.isRetryable(error, from: .assemblyAPI))
    }

    /// `TRANSPORT_CONNECT`, `TRANSPORT_TIMEOUT`, ... for the ledger and reports.
    static func code(of error: TransportError) -> FailureCode {
        switch error {
        case .invalidRequest: .transportInvalidRequest
        case .resolve: .transportResolve
        case .connect: .transportConnect
        case .timeout: .transportTimeout
        case .tls: .transportTLS
        case .reset: .transportReset
        case .cancelled: .transportCancelled
        case .tooLarge: .transportTooLarge
        case .fileIO: .transportFileIO
        case .insufficientSpace: .transportLowSpace
        case let .httpStatus(_, code, _): .http(code)
        case .failed: .transportFailed
        case .refusedAddress: .transportRefusedAddress
        }
    }

    /// True for the answers that ask the client to slow down.
    package var isRateLimit: Bool { Retryability.isRateLimit(code, status: httpStatus) }

    package var description: String { "\(code): \(message)" }

    /// The reason the ledger keeps for a shard or file that failed with this error.
    package var failureReason: FailureReason {
        FailureReason(code: code, message: message, isRetryable: isRetryable)
    }
}
