/// What can go wrong in the HMAC module: reading a file to hash it, or the system's random source.
package enum HMACError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file could not be opened or read while hashing it; `reason` is the system's message.
    case fileIO(path: String, reason: String)
    /// libcrypto's random generator refused to produce bytes (it could not seed itself).
    case randomUnavailable(count: Int)

    package var description: String {
        switch self {
        case let .fileIO(path, reason):
            "hmac: cannot read \(path) to hash it: \(reason)"
        case let .randomUnavailable(count):
            "hmac: the system random generator did not produce \(count) bytes (RAND_bytes failed)"
        }
    }
}
