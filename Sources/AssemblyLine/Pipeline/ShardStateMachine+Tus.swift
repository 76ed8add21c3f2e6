import Foundation

extension ShardStateMachine {
    /// What the Assembly's answer before its tus uploads leads to: the uploads, or the Assembly as it ended.
    mutating func checkedTus(_ status: AssemblyStatus?, attempt: AttemptRecord, url: String, tusURL: String, _ facts: Facts,
                             now: Date) -> Decision {
        var facts = facts
        guard let status else { return gone(facts) }
        if status.isCompleted {
            // Every expected upload arrived before a stop kept us from recording it: the Assembly ran, and is kept.
            facts.recorded = .uploaded
            return advance(with: status, polling: nil, facts, now: now).after([.transition(.uploaded, .uploaded, .completedBeforeRecorded)])
        }
        guard status.isRunning else {
            facts.running = nil
            let code = status.error ?? status.ok.map { FailureCode(rawValue: $0.code) } ?? .assemblyStopped
            return fail(ShardFailure(code: code, "the Assembly stopped before its uploads finished; the shard runs again",
                                     retryable: true, needsNewAssembly: true), facts)
        }
        state = .loadingTusUploads(facts, attempt, status, tusURL: status.tusURL ?? tusURL)
        return Decision(refreshedURL(status, was: url), .request(.loadTusUploads))
    }

    /// Uploads the pending files the Assembly lacks, each from where an earlier try left it; none left goes on at once.
    mutating func uploadByTus(_ status: AssemblyStatus, attempt: AttemptRecord, tusURL: String, recorded: [UploadRecord],
                              _ facts: Facts, now: Date) -> Decision {
        var facts = facts
        let plan = TusResumePlan(status: status, assemblyURL: status.statusURL ?? attempt.assemblyURL ?? assemblyURL(of: attempt),
                                 tusURL: tusURL, recorded: recorded.filter { $0.attempt == attempt.number }, pending: facts.pending)
        guard !plan.uploads.isEmpty else {
            facts.recorded = .uploaded
            return advance(with: status, polling: nil, facts, now: now).after([.transition(.uploaded, .uploaded, .everyFileArrived)])
        }
        state = .uploadingTus(facts, status)
        return Decision(plan.renamed.map { .recordUpload(attempt: attempt.number, $0) }, .request(.uploadByTus(attempt: attempt.number, plan.uploads)))
    }
}
