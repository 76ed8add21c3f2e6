import AssemblyLine
import ConfigFormat
import Foundation

/// Everything the service knows about one Assembly; persisted as `assemblies/<id>/assembly.json`.
struct AssemblyRecord: Codable, Sendable, Hashable {
    var id: String
    var state: ServiceAssemblyState
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
    /// The params the instructions came from, before the Template was merged under them (a replay that keeps
    /// its parent's instructions keeps its parent's): what `reparse_template` merges under the Template again.
    /// Nil in records stored before it was kept, whose `params` are that.
    var requestParams: StoredJSON?
    var templateID: String?
    /// `params.fields` with the form's extra fields over them.
    var fields: StoredJSON
    /// The `Transloadit-Client` header of the creating request.
    var client: String?
    var bytesExpected: Int64
    var bytesReceived: Int64
    var expectedTusUploads: Int
    var tusUploads: [TusUploadEntry]
    var uploads: [ServiceAssemblyFile]
    /// The files the import steps fetched, each its own original (shown in `results` when the step is a result);
    /// nil in records stored before imports.
    var imports: [ServiceAssemblyFile]?
    var results: [String: [ServiceAssemblyFile]]
    /// The Assembly this one replays (`parent_id`, and its URL as `parent_assembly_status`).
    var parentID: String?

    /// A new Assembly with no files yet.
    init(id: String, sequence: Int, created: Date, params: String, instructions: ServiceInstructions,
         fields: JSONValue, client: String?) {
        self.id = id
        self.state = .uploading
        self.sequence = sequence
        self.created = created
        self.params = params
        self.mergedParams = StoredJSON(instructions.mergedParams)
        self.requestParams = StoredJSON(instructions.requestParams)
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
    var storedFiles: [ServiceAssemblyFile] {
        var seen = Set<String>()
        return (uploads + (imports ?? []) + results.values.flatMap { $0 }).filter { seen.insert($0.storedPath).inserted }
    }
}
