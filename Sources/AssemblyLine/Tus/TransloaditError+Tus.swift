import Foundation

extension TransloaditError {
    /// A tus failure that names the file; `code` is one of the `TUS_*` or `INPUT_*` codes.
    static func tus(_ code: FailureCode, file path: String, _ text: String, retryable: Bool = false) -> TransloaditError {
        TransloaditError(code: code, message: "\(path): \(text)", isRetryable: retryable)
    }

    /// The error of a tus answer the uploader cannot go on from, naming the request and the file.
    ///
    /// Retryable as ``Retryability`` says for a tus server, with the server's `Retry-After` (seconds) as the wait.
    static func tusAnswer(_ request: String, file path: String, response: HTTPResponseInfo) -> TransloaditError {
        let detail = RemoteText.escaped(response.bodyPrefix(limit: 200).trimmingCharacters(in: .whitespacesAndNewlines),
                                        limit: 120)
        return TransloaditError(
            code: .http(response.status),
            message: "\(path): tus \(request) answered HTTP \(response.status)" + (detail.isEmpty ? "" : " (\(detail))"),
            httpStatus: response.status,
            retryIn: Retryability.wait(retryIn: nil, retryAfter: response.header("Retry-After")),
            isRetryable: Retryability.isRetryable(status: response.status, from: .tus))
    }

    /// The error of a tus request that got no complete answer, naming the file.
    static func tusTransport(_ error: TransportError, file path: String) -> TransloaditError {
        TransloaditError(code: code(of: error), message: "\(path): \(error)", isRetryable: Retryability.isRetryable(error, from: .tus))
    }
}
