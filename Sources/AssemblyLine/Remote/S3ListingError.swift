/// Why listing a bucket failed: the service refused, the exchange failed, or the answer cannot be trusted.
///
/// No case holds a credential: the secret never reaches an error, and a URL only as its `scheme://host:port`.
package enum S3ListingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint or bucket cannot make a request (`reason` says which).
    case invalidAddress(reason: String)
    /// The service answered `status` with an S3 error `code` (``S3ErrorCode/unnamed`` without a body) and a message.
    case refused(code: S3ErrorCode, status: Int, message: String)
    /// No complete answer came.
    case transport(TransportError)
    /// Page `page` is not a ListObjectsV2 answer: not XML, or a field missing or wrong.
    case malformedPage(page: Int, reason: String)
    /// Page `page` held more keys than the `max-keys` asked for.
    case tooManyKeys(page: Int, count: Int, maxKeys: Int)
    /// Page `page` said it was truncated but gave no continuation token.
    case missingContinuationToken(page: Int)
    /// Page `page` holds a key that does not sort after the key before it (S3 lists in UTF-8 byte order): a repeat.
    case keysOutOfOrder(page: Int)
    /// Page `page` gave a continuation token already given before: the listing would go round forever.
    case repeatedContinuationToken(page: Int)
    /// The listing went on past `pages` pages, the bound its caller set.
    case tooManyPages(pages: Int)

    /// True when the same listing may succeed later: a transport failure that may pass, a 5xx, 429 or a "slow down".
    package var isRetryable: Bool {
        switch self {
        case let .transport(error): Retryability.isRetryable(error, from: .storage)
        case let .refused(code, status, _): code.isRetryable || Retryability.isRetryable(status: status, from: .storage)
        case .invalidAddress, .malformedPage, .tooManyKeys, .keysOutOfOrder, .missingContinuationToken, .repeatedContinuationToken, .tooManyPages: false
        }
    }

    /// True when the credentials are wrong or not allowed to list (access denied, a bad signature or key, 401, 403).
    package var isAuthorizationFailure: Bool {
        guard case let .refused(code, status, _) = self else { return false }
        return code.isAuthorizationFailure || (code == .unnamed && (status == 401 || status == 403))
    }

    package var description: String {
        switch self {
        case let .invalidAddress(reason):
            "s3 listing: \(reason)"
        case let .refused(code, status, message):
            "s3 listing: HTTP \(status) \(code)" + (message.isEmpty ? "" : ": \(message)")
        case let .transport(error):
            "s3 listing: \(error)"
        case let .malformedPage(page, reason):
            "s3 listing: page \(page) is not a ListObjectsV2 answer: \(reason)"
        case let .tooManyKeys(page, count, maxKeys):
            "s3 listing: page \(page) holds \(count) keys, more than the \(maxKeys) asked for"
        case let .keysOutOfOrder(page):
            "s3 listing: page \(page) repeats a key or lists one out of order"
        case let .missingContinuationToken(page):
            "s3 listing: page \(page) is truncated but names no continuation token"
        case let .repeatedContinuationToken(page):
            "s3 listing: page \(page) repeats an earlier continuation token; the listing would not end"
        case let .tooManyPages(pages):
            "s3 listing: still truncated after \(pages) pages, the most allowed"
        }
    }
}
