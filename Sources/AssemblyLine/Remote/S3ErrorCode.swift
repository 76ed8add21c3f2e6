/// The `Code` of an S3 error answer (`<Error><Code>…</Code>`), the ones a listing must tell apart as cases.
package enum S3ErrorCode: Sendable, Hashable, CustomStringConvertible {
    case accessDenied
    case signatureDoesNotMatch
    case invalidAccessKeyID
    /// The request's time is too far from the server's (`RequestTimeTooSkewed`).
    case requestTimeTooSkewed
    case noSuchBucket
    case invalidArgument
    /// A continuation token the service does not know (`InvalidToken` and the like).
    case invalidToken
    case slowDown
    case internalError
    case serviceUnavailable
    /// Any other code, escaped and bounded.
    case other(String)
    /// An error status with no S3 error body.
    case unnamed

    /// The case of `code` as S3 spells it.
    package init(_ code: String) {
        switch code {
        case "AccessDenied", "AllAccessDisabled", "AccountProblem": self = .accessDenied
        case "SignatureDoesNotMatch": self = .signatureDoesNotMatch
        case "InvalidAccessKeyId": self = .invalidAccessKeyID
        case "RequestTimeTooSkewed": self = .requestTimeTooSkewed
        case "NoSuchBucket": self = .noSuchBucket
        case "InvalidArgument": self = .invalidArgument
        case "InvalidToken", "InvalidContinuationToken": self = .invalidToken
        case "SlowDown": self = .slowDown
        case "InternalError": self = .internalError
        case "ServiceUnavailable": self = .serviceUnavailable
        default: self = .other(RemoteText.escaped(code, limit: 64))
        }
    }

    /// True for the codes that mean the credentials are wrong or not allowed: an operator must act (exit 77).
    package var isAuthorizationFailure: Bool {
        switch self {
        case .accessDenied, .signatureDoesNotMatch, .invalidAccessKeyID, .requestTimeTooSkewed: true
        default: false
        }
    }

    /// True for the codes that ask to try again later.
    package var isRetryable: Bool {
        switch self {
        case .slowDown, .internalError, .serviceUnavailable: true
        default: false
        }
    }

    package var description: String {
        switch self {
        case .accessDenied: "AccessDenied"
        case .signatureDoesNotMatch: "SignatureDoesNotMatch"
        case .invalidAccessKeyID: "InvalidAccessKeyId"
        case .requestTimeTooSkewed: "RequestTimeTooSkewed"
        case .noSuchBucket: "NoSuchBucket"
        case .invalidArgument: "InvalidArgument"
        case .invalidToken: "InvalidToken"
        case .slowDown: "SlowDown"
        case .internalError: "InternalError"
        case .serviceUnavailable: "ServiceUnavailable"
        case let .other(code): code
        case .unnamed: "no error code"
        }
    }
}
