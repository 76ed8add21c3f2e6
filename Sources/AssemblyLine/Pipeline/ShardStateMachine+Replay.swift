import Foundation

extension ShardStateMachine {
    /// What a replay's answer leads to: the new Assembly, polled like any; another try of the replay; or, when the
    /// service refuses to replay the parent, a new attempt that creates an Assembly with the files.
    mutating func replayAnswered(_ answer: Result<AssemblyStatus, TransloaditError>, parent: AssemblyID, attempt: AttemptRecord,
                                 _ facts: Facts, now: Date) -> Decision {
        var facts = facts
        switch answer {
        case let .success(status):
            guard let id = status.assemblyID.flatMap(AssemblyID.init) else {
                return fail(ShardFailure(code: .assemblyIDMismatch, "the replay's answer names no Assembly ID of ours to poll", retryable: false),
                            facts)
            }
            var replay = attempt
            replay.assemblyID = id
            return created(status, attempt: replay, facts, now: now).after([.checkpoint(.afterCreateAnswer)])
        case let .failure(error) where Self.refusesReplay(error):
            facts.replaying = nil
            return enter(.planned, facts).after([
                .noteRetry(.replayRefused(parent: parent, error.failureReason)), .transition(.restarted, .restarted, .none),
            ])
        case let .failure(error):
            return fail(ShardFailure(error), facts)
        }
    }

    /// True when the service's answer to a replay says it will not replay the parent, so that the shard uploads its files
    /// in a new Assembly: `ASSEMBLY_CANNOT_BE_REPLAYED`, the parent not found, or any answer a retry does not mend (a 4xx).
    static func refusesReplay(_ error: TransloaditError) -> Bool {
        error.code == .assemblyCannotBeReplayed || error.code.meansAssemblyNotFound || !error.failureReason.isRetryable
    }

    /// The request that signs the current attempt's params: a replay's, or a creation's.
    func sign(_ facts: Facts) -> Request {
        facts.replaying == nil ? .sign : .signReplay
    }

    /// The running Assembly as a replay would name it, when its uploads were stored (the shard is `uploaded` or
    /// `executing`): the Assembly that failed then is a candidate for a replay.
    func failedAssembly(_ facts: Facts) -> FailedAssembly? {
        guard facts.recorded == .uploaded || facts.recorded == .executing, let id = facts.running, let since = facts.runningSince else {
            return nil
        }
        return FailedAssembly(id: id, createdAt: since)
    }
}
