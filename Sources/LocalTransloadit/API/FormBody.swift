import HTTPMessages
import HTTPServer

/// The fields of a buffered request body that carries no files: urlencoded, or the non-file parts of a
/// multipart form (replays and the Template API; node-sdk sends multipart, go-sdk, python-sdk and ruby-sdk urlencoded).
enum FormBody {
    /// The fields of `request`'s query, then those of its body, in their order.
    ///
    /// - Throws: `INVALID_FORM_DATA` (400) for a multipart body that cannot be read.
    static func fields(of request: HTTPRequest, body: [UInt8]) throws(APIError) -> [FormField] {
        guard request.contentType?.essence == "multipart/form-data" else { return request.query + FormURLDecoder.decode(body) }
        do {
            var parser = try MultipartParser(
                contentType: request.headers["Content-Type"] ?? "", limits: CreateAssemblyHandler.multipartLimits)
            var collector = FieldCollector()
            try body.withUnsafeBytes { try parser.feed($0, into: &collector) }
            try parser.finish()
            return request.query + collector.fields
        } catch {
            throw .invalidForm("\(error)")
        }
    }

    /// Keeps the fields of a multipart body and skips its files.
    private struct FieldCollector: MultipartSink {
        var fields: [FormField] = []

        mutating func receiveField(_ field: FormField, part: MultipartPart) throws {
            fields.append(field)
        }

        mutating func beginFile(_ part: MultipartPart) throws {}
        mutating func receiveFileData(_ chunk: UnsafeRawBufferPointer) throws {}
        mutating func endFile() throws {}
    }
}
