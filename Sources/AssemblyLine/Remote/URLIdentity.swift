/// What tells one version of a URL's content from another for incremental nights: its ETag, size and last change.
///
/// From a list's row, or from the answer to one HEAD request (``URLHeadProbe``); either way untrusted text,
/// checked as it is read (``etag(_:)``, ``size(_:)``, ``lastModified(_:)``).
package struct URLIdentity: Sendable, Hashable {
    /// Why a value given for an identity is not one.
    package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// Empty, over ``URLIdentity/etagLimit`` bytes, or holding a space, a control or a non-ASCII character.
        case etag
        /// Not decimal digits from 0 to ``URLIdentity/maximumSize``, or two sizes that differ; the text, escaped.
        case size(String)
        /// Not an HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`); the text, escaped.
        case lastModified(String)

        package var description: String {
            switch self {
            case .etag: "an ETag that is empty, over \(URLIdentity.etagLimit) bytes, or holds a space, a control or a non-ASCII character"
            case let .size(text): "a size that is not a number of bytes from 0 to \(URLIdentity.maximumSize) (\(RemoteText.escaped(text, limit: 40)))"
            case let .lastModified(text): "a Last-Modified that is not an HTTP-date such as Sun, 06 Nov 1994 08:49:37 GMT (\(RemoteText.escaped(text, limit: 40)))"
            }
        }
    }

    /// The ETag as given, quotes and all (`"9b2c…"`, `W/"x"`).
    package var etag: String?
    package var size: Int64?
    package var lastModified: UTCDateTime?

    /// The longest ETag accepted, in bytes.
    package static let etagLimit = 256
    /// The largest size accepted: 1 PiB, beyond any one file an import reads.
    package static let maximumSize: Int64 = 1 << 50

    package init(etag: String? = nil, size: Int64? = nil, lastModified: UTCDateTime? = nil) {
        self.etag = etag
        self.size = size
        self.lastModified = lastModified
    }

    /// True when nothing identifies the content.
    package var isEmpty: Bool {
        etag == nil && size == nil && lastModified == nil
    }

    /// `text` as an ETag: 1 to ``etagLimit`` visible ASCII characters.
    package static func etag(_ text: String) throws(Problem) -> String {
        guard (1...etagLimit).contains(text.utf8.count), text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw .etag }
        return text
    }

    /// `text` as a size: decimal digits, 0 to ``maximumSize``.
    package static func size(_ text: String) throws(Problem) -> Int64 {
        guard !text.isEmpty, text.utf8.count <= 16, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let size = Int64(text), size <= maximumSize else { throw .size(text) }
        return size
    }

    /// `text` as an HTTP-date (IMF-fixdate, RFC 9110 §5.6.7).
    package static func lastModified(_ text: String) throws(Problem) -> UTCDateTime {
        guard let time = UTCDateTime(httpDate: text) else { throw .lastModified(text) }
        return time
    }
}
