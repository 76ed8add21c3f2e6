/// Reads an S3 error answer (`<Error><Code>…</Code><Message>…</Message></Error>`) into a ``S3ListingError``.
package enum S3ErrorAnswer {
    /// The refusal `body` with `status` states; ``S3ErrorCode/unnamed`` when the body is no S3 error.
    package static func refusal(status: Int, body: [UInt8]) -> S3ListingError {
        guard let root = try? StrictXMLParser.parse(body), root.name == "Error", let code = root.child("Code")?.text, !code.isEmpty else {
            return .refused(code: .unnamed, status: status, message: "")
        }
        let message = RemoteText.escaped(root.child("Message")?.text ?? "", limit: 200)
        return .refused(code: S3ErrorCode(code), status: status, message: message)
    }
}
