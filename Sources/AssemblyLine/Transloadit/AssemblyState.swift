/// Where an Assembly stands, from the status JSON's `ok` (transloadit-api.md §3.3).
///
/// Only `ASSEMBLY_UPLOADING` and `ASSEMBLY_EXECUTING` (and a replay's `ASSEMBLY_REPLAYING`) are
/// still running; a code the client does not know is kept as it came.
package enum AssemblyState: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    case uploading
    case executing
    case replaying
    case completed
    case canceled
    /// `REQUEST_ABORTED`: the creating request broke off before the service had the whole body.
    case aborted
    case other(String)

    /// The state a status code names.
    package init(code: String) {
        switch code {
        case "ASSEMBLY_UPLOADING": self = .uploading
        case "ASSEMBLY_EXECUTING": self = .executing
        case "ASSEMBLY_REPLAYING": self = .replaying
        case "ASSEMBLY_COMPLETED": self = .completed
        case "ASSEMBLY_CANCELED": self = .canceled
        case "REQUEST_ABORTED": self = .aborted
        default: self = .other(code)
        }
    }

    package init(stringLiteral code: String) {
        self.init(code: code)
    }

    /// The code as the service writes it.
    package var code: String {
        switch self {
        case .uploading: "ASSEMBLY_UPLOADING"
        case .executing: "ASSEMBLY_EXECUTING"
        case .replaying: "ASSEMBLY_REPLAYING"
        case .completed: "ASSEMBLY_COMPLETED"
        case .canceled: "ASSEMBLY_CANCELED"
        case .aborted: "REQUEST_ABORTED"
        case let .other(code): code
        }
    }

    /// True while the Assembly still works: uploading, executing or replaying.
    package var isRunning: Bool {
        switch self {
        case .uploading, .executing, .replaying: true
        case .completed, .canceled, .aborted, .other: false
        }
    }

    package var description: String { code }
}
