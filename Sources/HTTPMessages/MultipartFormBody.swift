#if canImport(Glibc)
import Glibc
#endif

/// Builds a `multipart/form-data` body (RFC 7578) as a `BodyPlan`: files are referenced, never read, so the
/// exact length is known up front and the bytes are streamed while sending.
///
/// Appending never throws: the first problem (a missing, unreadable or non-regular file, a header
/// value with a line break) is kept and thrown by `plan()`, so building stays fluent.
/// Names and filenames are quoted, with `"`, CR and LF percent-encoded as browsers do (WHATWG HTML
/// "multipart/form-data encoding algorithm"); other characters, UTF-8 included, are sent as they are.
///
/// ```swift
/// var form = MultipartFormBody()
/// form.append(name: "params", value: params)
/// form.appendFile(name: "file_1", path: "/data/in/a.jpg")
/// let request = try HTTPRequestSpec.multipart(.post, url, form: form)
/// ```
package struct MultipartFormBody: Sendable {
    /// The delimiter between parts; 1 to 70 characters of RFC 2046 `bchars`, no trailing space.
    package let boundary: String
    private var body = BodyPlan()
    private var firstError: BodyPlanError?

    /// A builder with `boundary`, by default a fresh random one.
    package init(boundary: String = MultipartFormBody.randomBoundary()) {
        precondition(Self.isValidBoundary(boundary), "invalid multipart boundary: \(boundary)")
        self.boundary = boundary
    }

    /// The request's `Content-Type` value, boundary included.
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// A text field.
    package mutating func append(name: String, value: String) {
        appendPart(name: name, filename: nil, contentType: nil, content: .bytes(Array(value.utf8)))
    }

    /// A part with bytes from memory, optionally presented as a file.
    package mutating func append(name: String, bytes: [UInt8], filename: String? = nil, contentType: String? = nil) {
        appendPart(name: name, filename: filename, contentType: contentType, content: .bytes(bytes))
    }

    /// A file part whose content is the whole file at `path`, read only when the body is sent.
    ///
    /// - Parameters:
    ///   - filename: the name the server sees; by default the last component of `path`.
    ///   - contentType: by default guessed from the extension (`MediaType.forPath`).
    package mutating func appendFile(name: String, path: String, filename: String? = nil, contentType: String? = nil) {
        guard firstError == nil else { return }
        var info = stat()
        guard stat(path, &info) == 0 else {
            firstError = .fileIO(path: path, reason: String(cString: strerror(errno)))
            return
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "is not a regular file"
            firstError = .fileIO(path: path, reason: "\(kind), expected a regular file")
            return
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            firstError = .fileIO(path: path, reason: "open: " + String(cString: strerror(errno)))
            return
        }
        close(descriptor)
        let shownName = filename ?? String(path.split(separator: "/").last ?? Substring(path))
        appendPart(
            name: name, filename: shownName, contentType: contentType ?? MediaType.forPath(path),
            content: .file(path: path, offset: 0, length: Int64(info.st_size)))
    }

    /// The finished body, closing delimiter included.
    ///
    /// - Throws: the first error met while appending.
    package func plan() throws(BodyPlanError) -> BodyPlan {
        if let firstError { throw firstError }
        var finished = body
        finished.append(finished.contentLength == 0 ? "--\(boundary)--\r\n" : "\r\n--\(boundary)--\r\n")
        return finished
    }

    // MARK: - Parts

    private mutating func appendPart(name: String, filename: String?, contentType: String?, content: BodySegment) {
        guard firstError == nil else { return }
        if let contentType, contentType.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
            firstError = .invalidPart(reason: "Content-Type of part \"\(name)\" contains a line break")
            return
        }
        var head = body.contentLength == 0 ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n"
        head += "Content-Disposition: form-data; name=\"\(Self.escape(name))\""
        if let filename {
            head += "; filename=\"\(Self.escape(filename))\""
        }
        head += "\r\n"
        if let contentType {
            head += "Content-Type: \(contentType)\r\n"
        }
        head += "\r\n"
        body.append(head)
        body.append(content)
    }

    /// `text` with `"`, CR and LF percent-encoded, ready to sit between quotes.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    // MARK: - Boundaries

    /// A boundary with 128 random bits: `assemblyline-` and 32 hex digits.
    package static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next() as UInt64, radix: 16)
        let low = String(generator.next() as UInt64, radix: 16)
        let pad = { (part: String) in String(repeating: "0", count: 16 - part.count) + part }
        return "assemblyline-" + pad(high) + pad(low)
    }

    /// True when `boundary` is 1 to 70 RFC 2046 `bchars` and does not end with a space.
    package static func isValidBoundary(_ boundary: String) -> Bool {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".unicodeScalars)
        return (1...70).contains(boundary.unicodeScalars.count)
            && boundary.unicodeScalars.allSatisfy(allowed.contains)
            && !boundary.hasSuffix(" ")
    }
}
