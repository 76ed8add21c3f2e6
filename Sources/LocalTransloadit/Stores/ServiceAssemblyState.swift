import AssemblyLine
import ConfigFormat

/// Where an Assembly is in its life; the raw value is its `ok` code (none for ``failed``).
enum ServiceAssemblyState: String, Codable, Sendable, Hashable {
    /// Waiting for expected tus uploads.
    case uploading = "ASSEMBLY_UPLOADING"
    /// Queued for a worker, or running.
    case executing = "ASSEMBLY_EXECUTING"
    /// Only the `ok` of a replay's answer: the new Assembly's record is ``executing``.
    case replaying = "ASSEMBLY_REPLAYING"
    case completed = "ASSEMBLY_COMPLETED"
    case canceled = "ASSEMBLY_CANCELED"
    /// The multipart upload that created it was cut off.
    case aborted = "REQUEST_ABORTED"
    /// Ended with an execution error (`ok: null`, `error` set).
    case failed = "FAILED"

    /// True while the Assembly can still change by itself or by uploads.
    var isRunning: Bool { self == .uploading || self == .executing }

    /// The `ok` value of the status JSON.
    var okCode: JSONValue { self == .failed ? .null : .string(rawValue) }

    /// The human message that goes with the state.
    var message: String {
        switch self {
        case .uploading: return "The Assembly is still in the process of being uploaded."
        case .executing: return "The Assembly is currently being executed."
        case .replaying: return "The Assembly is being replayed."
        case .completed: return "The Assembly was successfully completed."
        case .canceled: return "The Assembly was canceled."
        case .aborted: return "The upload connection was closed or timed out before receiving all data."
        case .failed: return "The Assembly failed."
        }
    }
}
