import Foundation

extension TransloaditError {
    /// The statuses after which the same tus request may be sent again later: the server is busy or briefly failing.
    static func isTusRetryable(status: Int) -> Bool {
        status >= 500 || status == 408 || status == 423 || status == 429
    }

    /// A tus failure that names the file; `code` is one of the `TUS_*` or `INPUT_*` codes.
    static func tus(_ code: String, file path: String, _ text: String, retryable: Bool = false) -> TransloaditError {
        TransloaditError(code: code, message: "\(path): \(text)", isRetryable: retryable)
    }

    /// The error of a tus answer the uploader cannot go on from, naming the request and the file.
    ///
    /// Retryable for 5xx, 408, 423 and 429, with the server's `Retry-After` (seconds) as the wait.
    static func tusAnswer(_ request: String, file path: String, response: HTTPResponseInfo) -> TransloaditError {
        let detail = TransportError.oneLine(response.bodyPrefix(limit: 200).trimmingCharacters(in: .whitespacesAndNewlines),
                                            limit: 120)
        return TransloaditError(
            code: "HTTP_\(response.status)",
            message: "\(path): tus \(request) answered HTTP \(response.status)" + (detail.isEmpty ? "" : " (\(detail))"),
            httpStatus: response.status,
            retryIn: response.header("Retry-After").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.map { .seconds($0) },
            isRetryable: isTusRetryable(status: response.status))
    }

    /// The error of a tus request that got no complete answer, naming the file.
    static func tusTransport(_ error: TransportError, file path: String) -> TransloaditError {
        TransloaditError(code: code(of: error), message: "\(path): \(error)", isRetryable: error.isRetryable)
    }
}
