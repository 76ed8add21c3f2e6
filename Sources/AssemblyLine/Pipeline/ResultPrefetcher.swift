import Synchronization

/// Starts downloading an Assembly's results as they are announced, before the Assembly completes, so
/// that downloads overlap execution.
///
/// A prefetch only puts a verified file in its place (``ResultDownloader``: temp file, size and MD5,
/// rename); it records nothing. The ledger learns of results when the Assembly completes, as
/// always, and the download step then finds each prefetched file in place and verified and keeps it.
/// Before that step, ``settle()`` waits for every prefetch, so that two writers never share a temp file.
/// A result is prefetched only when it names its input's field and its name (so that its path is the
/// one the completed status gives it); any other waits for the completion.
final class ResultPrefetcher: Sendable {
    private struct State {
        var files: [Int: FileRecord]?
        var started: Set<String> = []
        var tasks: [Task<Void, Never>] = []
    }

    private let context: PipelineContext
    private let shardIndex: Int
    private let state = Mutex(State())

    init(context: PipelineContext, shardIndex: Int) {
        self.context = context
        self.shardIndex = shardIndex
    }

    /// Starts downloading `file`, a result of `step`, when it is one to download and not started yet.
    func prefetch(_ file: AssemblyFile, step: String) {
        guard file.field != nil, let name = file.name else { return }
        let key = "\(step)/\(file.id ?? name)"
        guard state.withLock({ $0.started.insert(key).inserted }) else { return }
        let task = Task {
            guard let result = await self.mapped(file, step: step) else { return }
            let downloader = context.downloader
            // A prefetch is a download like any other: a test may kill the run halfway through it too.
            let progress = HalfwayTrigger(context.checkpoint, at: .midDownload).receiving
            _ = try? await context.governor.downloads.withSlot { () async -> Int64? in
                try? await downloader.fetch(result, progress: progress)
            }
        }
        state.withLock { $0.tasks.append(task) }
    }

    /// Waits until every prefetch started so far has ended.
    func settle() async {
        let tasks = state.withLock { state in
            defer { state.tasks = [] }
            return state.tasks
        }
        for task in tasks {
            await task.value
        }
    }

    /// Stops every prefetch in flight.
    func cancel() {
        state.withLock { $0.tasks }.forEach { $0.cancel() }
    }

    /// The result as the completed status will map it, nil unless it is to be downloaded.
    private func mapped(_ file: AssemblyFile, step: String) async -> NewResult? {
        var files = state.withLock { $0.files }
        if files == nil {
            guard let records = try? await context.ledger.files(of: context.runID, shard: shardIndex, state: nil) else { return nil }
            let byIndex = Dictionary(records.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
            state.withLock { $0.files = byIndex }
            files = byIndex
        }
        let mapper = ResultMapper(runID: context.runID, shardIndex: shardIndex, output: context.output)
        let result = mapper.result(file, step: step, ordinal: 0, uploadFields: [:], byIndex: files ?? [:])
        guard case .download = result.delivery else { return nil }
        return result
    }
}
