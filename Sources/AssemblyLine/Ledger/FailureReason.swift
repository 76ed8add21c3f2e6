/// Why a shard or a file failed, and whether trying again can help.
public struct FailureReason: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A stable code: Transloadit's `error` (`IMAGE_RESIZE_ERROR`), `HTTP_503`, a transport or signer code.
    public var code: String
    /// One line for people. Never a secret, token or signature.
    public var message: String
    /// Whether a retry or a resume can succeed without anything else changing.
    public var isRetryable: Bool

    public init(code: String, message: String, isRetryable: Bool) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable
    }

    public var description: String { "\(code): \(message)" }

    /// The same reason, marked as one a new attempt can fix.
    public var retryable: FailureReason {
        FailureReason(code: code, message: message, isRetryable: true)
    }
}
