import AssemblyLine
import Foundation

/// Where an Assembly is in its life; the raw value is its `ok` code (none for ``failed``).
enum AssemblyState: String, Codable, Sendable, Hashable {
    /// Waiting for expected tus uploads.
    case uploading = "ASSEMBLY_UPLOADING"
    /// Queued for a worker, or running.
    case executing = "ASSEMBLY_EXECUTING"
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
        case .completed: return "The Assembly was successfully completed."
        case .canceled: return "The Assembly was canceled."
        case .aborted: return "The upload connection was closed or timed out before receiving all data."
        case .failed: return "The Assembly failed."
        }
    }
}

/// Why an Assembly failed while executing: the error code and where it struck.
struct AssemblyFailure: Codable, Sendable, Hashable {
    var code: String
    var message: String
    var reason: String?
    /// The step that failed.
    var step: String?
    /// The name of the input file that failed.
    var file: String?
    /// The ID of the upload the failing file comes from.
    var originalID: String?
}

/// One tus upload as the Assembly sees it (`tus_uploads[]`).
struct TusUploadEntry: Codable, Sendable, Hashable {
    var id: String
    var filename: String
    var fieldname: String
    var size: Int64
    var offset: Int64
    var finished: Bool
    var userMeta: [String: String]
}

/// Everything the service knows about one Assembly; persisted as `assemblies/<id>/assembly.json`.
struct AssemblyRecord: Codable, Sendable, Hashable {
    var id: String
    var state: AssemblyState
    var failure: AssemblyFailure?
    /// The order of creation in this data directory, for listing newest first.
    var sequence: Int
    var created: Date
    var uploadFinished: Date?
    var executionStart: Date?
    var executionEnd: Date?
    /// The `params` field exactly as sent.
    var params: String
    /// The params after the Template was merged under them.
    var mergedParams: StoredJSON
    var templateID: String?
    /// `params.fields` with the form's extra fields over them.
    var fields: StoredJSON
    /// The `Transloadit-Client` header of the creating request.
    var client: String?
    var bytesExpected: Int64
    var bytesReceived: Int64
    var expectedTusUploads: Int
    var tusUploads: [TusUploadEntry]
    var uploads: [AssemblyFile]
    var results: [String: [AssemblyFile]]
    /// The Assembly this one replays.
    var replayOf: String?

    /// A new Assembly with no files yet.
    init(id: String, sequence: Int, created: Date, params: String, instructions: AssemblyInstructions,
         fields: JSONValue, client: String?) {
        self.id = id
        self.state = .uploading
        self.sequence = sequence
        self.created = created
        self.params = params
        self.mergedParams = StoredJSON(instructions.mergedParams)
        self.templateID = instructions.templateID
        self.fields = StoredJSON(fields)
        self.client = client
        self.bytesExpected = 0
        self.bytesReceived = 0
        self.expectedTusUploads = 0
        self.tusUploads = []
        self.uploads = []
        self.results = [:]
    }

    var startedTusUploads: Int { tusUploads.count }
    var finishedTusUploads: Int { tusUploads.filter(\.finished).count }

    /// True when every expected tus upload has finished (always true when none are expected).
    var uploadsComplete: Bool { finishedTusUploads >= expectedTusUploads }

    /// Every file the Assembly holds on disk, uploads and results, each once.
    var storedFiles: [AssemblyFile] {
        var seen = Set<String>()
        return (uploads + results.values.flatMap { $0 }).filter { seen.insert($0.storedPath).inserted }
    }
}
