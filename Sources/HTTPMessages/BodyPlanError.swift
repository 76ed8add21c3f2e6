/// Why a request body cannot be built or read: a file it names, or a part it cannot carry.
package enum BodyPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file of the body cannot be opened or read, or is not a regular file, or shrank since planned.
    case fileIO(path: String, reason: String)
    /// A part's header value cannot go on the wire (a line break in it).
    case invalidPart(reason: String)

    package var description: String {
        switch self {
        case let .fileIO(path, reason): "file \(path): \(reason)"
        case let .invalidPart(reason): "invalid multipart part: \(reason)"
        }
    }
}
