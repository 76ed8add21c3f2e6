import ConfigFormat

/// One thing an Assembly's change stream says (transloadit-api.md; Uppy's `Assembly.ts`).
///
/// Events carry JSON (`event: assembly_result_finished`, `data: ["step", {result}]`); the three
/// messages are bare `data:` lines of their own name. Only `finished`, `failed` and
/// `resultFinished` change what the orchestrator does; the rest are named so that a log can say them.
package enum AssemblyUpdate: Sendable, Hashable {
    /// `assembly_finished`: the Assembly ended; its status says how.
    case finished
    /// `assembly_error`: the Assembly failed; its status says why.
    case failed
    /// `assembly_result_finished`: one result of `step` is ready.
    case resultFinished(step: String)
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
            guard let step = Self.stepName(ofResult: data) else { return nil }
            self = .resultFinished(step: step)
        default:
            return nil
        }
    }

    /// The step of a `["step", {result}]` payload.
    private static func stepName(ofResult data: String) -> String? {
        guard case let .array(items)? = try? JSONValue(parsing: data), case let .string(step)? = items.first else { return nil }
        return step
    }
}
