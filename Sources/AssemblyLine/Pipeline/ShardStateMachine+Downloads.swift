import ConfigFormat
import Foundation

extension ShardStateMachine {
    /// Downloads the completed attempt's results still to fetch, unless they are past their lifetime or their fetches.
    ///
    /// `results` are the shard's of every attempt: those of earlier attempts, those in place already and
    /// those not to download (recorded, exported) are not fetched.
    mutating func startDownloads(_ attempt: AttemptRecord?, results: [ResultRecord], _ facts: Facts, now: Date) -> Decision {
        guard let attempt else { return fail(Self.noAttempt, facts) }
        let current = results.filter { $0.attempt == attempt.number }
        let pending = current.filter(\.needsDownload)
        // Only temporary results expire: an export Robot's stay where it stored them.
        if let completed = attempt.completedAt, pending.contains(where: \.result.isTemporary),
           now.timeIntervalSince(completed) > settings.resultLifetime.timeInterval {
            return fail(ShardFailure(code: .resultsExpired, "the results are past their lifetime; the shard runs again",
                                     retryable: true, needsNewAssembly: true), facts)
        }
        if let spent = pending.first(where: { $0.result.isTemporary && $0.fetches >= ResultDownloader.fetchLimit }) {
            return fail(ShardFailure(code: .resultFetchLimit, "\(spent.result.name) was fetched \(ResultDownloader.fetchLimit) times; the shard runs again",
                                     retryable: true, needsNewAssembly: true), facts)
        }
        state = .downloading(facts, results: current)
        return Decision(.request(.download(pending)))
    }

    /// What the downloads of the completed attempt's `results` lead to: the shard done, files that storage refused
    /// failed alone, or a failure.
    ///
    /// What a refusal means comes from ``Retryability/storageRefusal(status:temporary:)``: a result the
    /// service no longer has needs the shard run again (a retry of the download cannot help); a private
    /// one (an export's, in the customer's storage) fails its files alone, and so does a URL that led to a
    /// link-local or metadata address (`RESULT_URL_REFUSED`).
    mutating func downloadsEnded(_ outcomes: [DownloadOutcome], of results: [ResultRecord], _ facts: Facts) -> Decision {
        var facts = facts
        var commands: [Command] = []
        var failure: ShardFailure?
        for outcome in outcomes {
            guard let error = outcome.error else { continue }
            let result = outcome.record.result
            let alone: FailureReason
            switch error.httpStatus.flatMap({ Retryability.storageRefusal(status: $0, temporary: result.isTemporary) }) {
            case .gone?:
                failure = failure ?? ShardFailure(error.failureReason.retryable, needsNewAssembly: true)
                continue
            case .private?:
                alone = FailureReason(
                    code: .resultNotDownloadable,
                    message: "storage refused \(result.name) of step \(result.step) (HTTP \(error.httpStatus ?? 0)); an export Robot's "
                        + "results are recorded, not downloaded, unless output.steps names their step: leave \(result.step) out of output.steps",
                    isRetryable: false)
            case nil where error.code == .transportRefusedAddress:
                alone = FailureReason(code: .resultURLRefused, message: "\(result.name) of step \(result.step) is not fetched: \(error.message)",
                                      isRetryable: false)
            case nil where error.code == .outputCollision:
                alone = error.failureReason
            case nil:
                failure = failure ?? ShardFailure(error)
                continue
            }
            let files = result.source.inputs
            guard !files.isEmpty else {
                failure = failure ?? ShardFailure(alone)
                continue
            }
            facts.markFailed(files, alone)
            for file in files {
                let input = facts.files.first { $0.index == file }?.file.relativePath
                commands += [.failFiles([file], alone), .report(.fileFailed, .resultRefused(file: input, result: result.name, alone))]
            }
        }
        if let failure { return fail(failure, facts).after(commands) }
        state = .finished(.downloaded)
        let fetched = Set(outcomes.filter { $0.error == nil }.map(\.record.id))
        let downloaded = Command.transition(Self.downloaded(results, fetched: fetched, facts), .downloaded,
                                            .downloads(count: results.count(where: \.needsDownload)))
        return Decision(commands + [.checkpoint(.beforeShardDone), downloaded], .finish(.downloaded))
    }

    /// How the pending files end once the completed attempt's `results` are in (`fetched` the ids downloaded just now):
    /// done when a result that counts for the file (its own, or one of several inputs that names it) is on disk,
    /// fetched now or before, or in the customer's storage (exported); else no result, the Assembly made none for it
    /// (a filter Step may mean it). A result that names no input counts for none, and one recorded, not downloaded, for none.
    static func downloaded(_ results: [ResultRecord], fetched: Set<Int64>, _ facts: Facts) -> ShardTransition {
        let delivered = results.filter { $0.isDownloaded || fetched.contains($0.id) || $0.result.delivery == .exported }
        let counted = Set(delivered.flatMap(\.result.source.inputs))
        let pending = facts.pending.map(\.index)
        return .downloaded(done: pending.filter(counted.contains), noResult: pending.filter { !counted.contains($0) })
    }
}

extension ShardStateMachine.Facts {
    /// Notes that the machine failed these files alone.
    mutating func markFailed(_ indices: [Int], _ reason: FailureReason) {
        let failed = Set(indices)
        for position in files.indices where failed.contains(files[position].index) {
            files[position].state = .failed
            files[position].failure = reason
        }
    }
}
