/// Why a form body (multipart/form-data) could not be read.
///
/// Each case names where the problem is (the byte offset in the body, the 1-based part number,
/// the field name) so the one-line `description` is enough to find it. The local service answers
/// these with a 400 and its own error code.
package enum FormDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `Content-Type` is not `multipart/form-data`.
    case notMultipart(contentType: String)
    /// The `Content-Type` has no usable `boundary` parameter (1 to 70 characters, RFC 2046 §5.1.1).
    case invalidBoundary(contentType: String)
    /// The bytes after a boundary are neither `--` nor a line end.
    case malformedDelimiter(offset: Int)
    /// A part's header block is longer than the limit.
    case headerTooLarge(part: Int, limit: Int)
    /// A header line without a `name: value` form.
    case malformedHeader(part: Int, line: String)
    /// A part without `Content-Disposition: form-data; name="..."`.
    case missingDisposition(part: Int)
    /// A field value (a part without a filename) is longer than the limit.
    case fieldTooLarge(name: String, limit: Int)
    /// A field value that is not UTF-8.
    case fieldNotUTF8(name: String)
    /// More parts than the limit.
    case tooManyParts(limit: Int)
    /// The body ended before the closing boundary.
    case truncated(offset: Int)

    package var description: String {
        switch self {
        case let .notMultipart(contentType):
            return "Content-Type '\(contentType.prefix(80))': expected multipart/form-data"
        case let .invalidBoundary(contentType):
            return "Content-Type '\(contentType.prefix(80))': expected a boundary parameter of 1 to 70 characters"
        case let .malformedDelimiter(offset):
            return "multipart body, byte \(offset): expected a line end or '--' after the boundary"
        case let .headerTooLarge(part, limit):
            return "multipart part \(part): headers exceed \(limit) bytes"
        case let .malformedHeader(part, line):
            return "multipart part \(part): header line '\(line.prefix(80))' is not of the form 'Name: value'"
        case let .missingDisposition(part):
            return "multipart part \(part): expected a header 'Content-Disposition: form-data; name=\"...\"'"
        case let .fieldTooLarge(name, limit):
            return "multipart field '\(name.prefix(80))': value exceeds \(limit) bytes"
        case let .fieldNotUTF8(name):
            return "multipart field '\(name.prefix(80))': value is not valid UTF-8"
        case let .tooManyParts(limit):
            return "multipart body: more than \(limit) parts"
        case let .truncated(offset):
            return "multipart body, byte \(offset): body ended before the closing boundary"
        }
    }
}
