/// Why a secret or token could not be read; names the variable or file, never the value.
package enum SecretError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The environment variable is not set.
    case unset(variable: String)
    /// The variable or file holds nothing (after one trailing newline is removed).
    case empty(SecretSource)
    /// The file could not be opened or read; `reason` is the system's message.
    case unreadable(path: String, reason: String)
    /// The path is not a regular file.
    case notRegularFile(path: String)
    /// The file may be read or written by its group or by others; `mode` is its permission bits.
    case tooOpen(path: String, mode: UInt32)
    /// The file is larger than any secret or token.
    case tooLarge(path: String, limit: Int)

    package var description: String {
        switch self {
        case let .unset(variable):
            "secret: environment variable \(variable) is not set; expected it to hold the secret or token"
        case let .empty(source):
            "secret: \(source) is empty; expected the secret or token"
        case let .unreadable(path, reason):
            "secret: cannot read file \(path): \(reason)"
        case let .notRegularFile(path):
            "secret: \(path) is not a regular file"
        case let .tooOpen(path, mode):
            "secret: file \(path) is accessible by group or others (mode \(String(mode, radix: 8))); expected mode 600 or stricter (chmod 600 \(path))"
        case let .tooLarge(path, limit):
            "secret: file \(path) is larger than \(limit) bytes; expected a secret or token"
        }
    }
}
