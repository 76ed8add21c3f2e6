/// An entry of a listing that was left out, and why: the warning a caller reports instead of the object.
package struct S3SkippedKey: Sendable, Hashable, CustomStringConvertible {
    /// Why an entry cannot be an input.
    package enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A `..` (or `.`) path segment: as a local path it would leave its directory.
        case dotSegment
        /// A control character (NUL, a newline, ESC, …) in the key.
        case controlCharacter
        /// An empty key, or one longer than S3's 1,024 bytes.
        case badLength
        /// The key does not start with the prefix that was listed.
        case outsidePrefix
        /// `Size` is missing, not a decimal number, negative or beyond S3's 5 TiB; the text as sent.
        case badSize(String)
        /// `Key` or `ETag` is missing.
        case missingField(String)

        package var description: String {
            switch self {
            case .dotSegment: "a `.` or `..` path segment"
            case .controlCharacter: "a control character"
            case .badLength: "an empty key or one over 1024 bytes"
            case .outsidePrefix: "not under the listed prefix"
            case let .badSize(text): "a size that is not 0 to 5 TiB (\(RemoteText.escaped(text, limit: 40)))"
            case let .missingField(name): "no \(name)"
            }
        }
    }

    /// The key as sent, escaped for printing (``RemoteText``) and bounded.
    package var key: String
    package var reason: Reason

    package init(key: String, reason: Reason) {
        self.key = RemoteText.escaped(key, limit: RemoteText.nameLimit)
        self.reason = reason
    }

    package var description: String { "skipped \(key): \(reason)" }
}
