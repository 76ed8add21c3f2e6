import ConfigFormat

/// One change of an Assembly that its change stream tells, found by comparing its record before and after.
enum AssemblyChange: Sendable {
    case uploadFinished(ServiceAssemblyFile)
    case uploadingFinished
    case resultFinished(step: String, ServiceAssemblyFile)
    /// Completed, canceled or aborted: the stream's `assembly_finished`; the status says which.
    case finished
    case failed(AssemblyFailure)

    /// True for the change after which the stream ends.
    var ends: Bool {
        switch self {
        case .finished, .failed: true
        default: false
        }
    }

    /// The changes from `before` (nil for a new Assembly) to `after`, in the order they happened.
    static func between(_ before: AssemblyRecord?, _ after: AssemblyRecord) -> [AssemblyChange] {
        var changes: [AssemblyChange] = []
        let knownUploads = Set(before?.uploads.map(\.id) ?? [])
        changes += after.uploads.filter { !knownUploads.contains($0.id) }.map(AssemblyChange.uploadFinished)
        let wasUploading = before.map { $0.state == .uploading } ?? true
        if wasUploading, after.state != .uploading, after.state != .aborted, after.state != .canceled {
            changes.append(.uploadingFinished)
        }
        for step in after.results.keys.sorted() {
            let known = Set(before?.results[step]?.map(\.id) ?? [])
            changes += (after.results[step] ?? []).filter { !known.contains($0.id) }.map { .resultFinished(step: step, $0) }
        }
        if before?.state.isRunning ?? true, !after.state.isRunning {
            changes.append(after.failure.map(AssemblyChange.failed) ?? .finished)
        }
        return changes
    }

    /// The change that tells a subscriber who arrives after the end how the Assembly ended.
    static func ending(of record: AssemblyRecord) -> AssemblyChange? {
        guard !record.state.isRunning else { return nil }
        return record.failure.map(AssemblyChange.failed) ?? .finished
    }

    /// The event-stream text: events with a JSON payload, messages as a bare `data:` line (as production sends them).
    func eventText(assemblyID: String, urls: ServiceURLs) -> String {
        switch self {
        case let .uploadFinished(file):
            return "event: assembly_upload_finished\ndata: \(file.json(urls: urls).serialized)\n\n"
        case .uploadingFinished:
            return "data: assembly_uploading_finished\n\n"
        case let .resultFinished(step, file):
            return "event: assembly_result_finished\ndata: \(JSONValue.array([.string(step), file.json(urls: urls)]).serialized)\n\n"
        case .finished:
            return "data: assembly_finished\n\n"
        case let .failed(failure):
            let payload = JSONValue.object([
                "error": .string(failure.code), "message": .string(failure.message), "msg": .string(failure.message),
                "assembly_id": .string(assemblyID), "assembly_ssl_url": .string(urls.assembly(assemblyID)),
            ])
            return "event: assembly_error\ndata: \(payload.serialized)\n\n"
        }
    }
}
