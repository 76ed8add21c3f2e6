import HTTPServer

/// Collects a `POST /sign` body up to a bound, then hands it to the service; an oversized body is refused (and logged) as it grows.
final class SignRequestSink: HTTPBodySink {
    private let limit: Int
    private let refuse: () -> HTTPResponse
    private let answer: ([UInt8]) -> HTTPResponse
    private var body: [UInt8] = []

    /// - Parameters:
    ///   - refuse: the 413 answer, called once when the body passes `limit`.
    ///   - answer: the answer to the complete body.
    init(limit: Int, refuse: @escaping () -> HTTPResponse, answer: @escaping ([UInt8]) -> HTTPResponse) {
        self.limit = limit
        self.refuse = refuse
        self.answer = answer
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws(HTTPRejection) {
        guard body.count + chunk.count <= limit else { throw HTTPRejection(refuse()) }
        body.append(contentsOf: chunk)
    }

    func finish() -> HTTPResponse {
        answer(body)
    }

    func abort(_ reason: HTTPAbortReason) {
        body = []
    }
}
