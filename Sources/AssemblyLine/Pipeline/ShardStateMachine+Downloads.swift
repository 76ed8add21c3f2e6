import ConfigFormat
import Foundation

extension ShardStateMachine {
    /// Downloads the completed attempt's results still to fetch, unless they are past their lifetime or their fetches.
    ///
    /// `results` are the shard's of every attempt: those of earlier attempts, those in place already and
    /// those not to download (recorded, exported) are not fetched.
    mutating func startDownloads(_ attempt: AttemptRecord?, results: [ResultRecord], _ facts: Facts, now: Date) -> Decision {
        guard let attempt else { return fail(Self.noAttempt, facts) }
        let pending = results.filter { $0.attempt == attempt.number && $0.needsDownload }
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
        state = .downloading(facts, pending)
        return Decision(.request(.download(pending)))
    }

    /// What the downloads' outcomes lead to: the shard done, files that storage refused failed alone, or a failure.
    ///
    /// What a refusal means comes from ``Retryability/storageRefusal(status:temporary:)``: a result the
    /// service no longer has needs the shard run again (a retry of the download cannot help); a private
    /// one (an export's, in the customer's storage) fails its files alone, and so does a URL that led to a
    /// link-local or metadata address (`RESULT_URL_REFUSED`).
    mutating func downloadsEnded(_ outcomes: [DownloadOutcome], of pending: [ResultRecord], _ facts: Facts) -> Decision {
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
        return Decision(commands + [.checkpoint(.beforeShardDone), .transition(.downloaded, .downloaded, .downloads(count: pending.count))],
                        .finish(.downloaded))
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
