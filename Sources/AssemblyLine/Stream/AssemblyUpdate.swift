import ConfigFormat

/// One thing an Assembly's change stream says (transloadit-api.md; Uppy's `Assembly.ts`).
///
/// Events carry JSON (`event: assembly_result_finished`, `data: ["step", {result}]`); the three
/// messages are bare `data:` lines of their own name. `finished` and `failed` wake the next status
/// request, `resultFinished` starts the result's download; the rest change nothing.
package enum AssemblyUpdate: Sendable, Hashable {
    /// `assembly_finished`: the Assembly ended; its status says how.
    case finished
    /// `assembly_error`: the Assembly failed; its status says why.
    case failed
    /// `assembly_result_finished`: one result of `step` is ready.
    case resultFinished(step: String, AssemblyFile)
    /// `assembly_upload_finished`, `assembly_uploading_finished`, `assembly_upload_meta_data_extracted`,
    /// `assembly_execution_progress`.
    case progressed

    /// The update an event is, nil for one the stream's documentation does not name.
    package init?(_ event: ServerSentEvent) {
        switch (event.event, event.data) {
        case ("message", "assembly_finished"):
            self = .finished
        case ("message", "assembly_uploading_finished"), ("message", "assembly_upload_meta_data_extracted"),
             ("assembly_upload_finished", _), ("assembly_execution_progress", _):
            self = .progressed
        case ("assembly_error", _):
            self = .failed
        case ("assembly_result_finished", let data):
            guard let result = JSONCursor.read(Array(data.utf8), Self.stepResult) ?? nil else { return nil }
            self = .resultFinished(step: result.step, result.file)
        default:
            return nil
        }
    }

    /// The `["step", {result}]` payload of `assembly_result_finished`: a step's name and a file object, whatever follows.
    private static func stepResult(_ cursor: inout JSONCursor) throws(JSONCursorError) -> (step: String, file: AssemblyFile)? {
        var step: String?
        var file: AssemblyFile?
        var position = 0
        let isList = try cursor.array { cursor throws(JSONCursorError) in
            switch position {
            case 0: step = try cursor.text()
            case 1: file = try AssemblyFile(reading: &cursor)
            default: try cursor.skip()
            }
            position += 1
        }
        guard isList, let step, let file else { return nil }
        return (step, file)
    }
}
