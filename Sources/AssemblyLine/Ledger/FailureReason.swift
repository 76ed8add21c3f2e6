/// Why a shard or a file failed, and whether trying again can help.
package struct FailureReason: Sendable, Hashable, CustomStringConvertible {
    /// A stable code: Transloadit's `error` (`IMAGE_RESIZE_ERROR`), `HTTP_503`, a transport or signer code.
    package var code: FailureCode
    /// One line for people. Never a secret, token or signature.
    package var message: String
    /// Whether a retry or a resume can succeed without anything else changing.
    package var isRetryable: Bool

    package init(code: FailureCode, message: String, isRetryable: Bool) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable
    }

    package var description: String { "\(code): \(message)" }

    /// The same reason, marked as one a new attempt can fix.
    package var retryable: FailureReason {
        FailureReason(code: code, message: message, isRetryable: true)
    }
}
