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
            return createInstead(of: parent, error.failureReason, facts)
        case let .failure(error):
            return fail(ShardFailure(error), facts)
        }
    }

    /// Replays the parent when its status (nil: the service does not know it) lists an upload for every pending file of the
    /// shard, in its field; else creates a new Assembly with the files. A file that failed alone before the parent was made
    /// is pending again on a resume, and the parent never had it: a replay would leave it without a result.
    mutating func replayOrCreate(holding parent: AssemblyStatus?, _ attempt: AttemptRecord, _ signed: SignedParams, _ facts: Facts) -> Decision {
        guard let id = facts.replaying else { preconditionFailure("shard state machine: a replay's parent checked without a replay") }
        guard let parent, parent.assemblyID == id.rawValue else {
            return createInstead(of: id, FailureReason(code: .assemblyNotFound, message: "the service no longer knows Assembly \(id)",
                                                       isRetryable: true), facts)
        }
        let held = Set(parent.uploads.compactMap(\.field))
        let lacking = facts.pending.filter { !held.contains(ResultMapper.field(forFile: $0.index)) }
        guard lacking.isEmpty else {
            let names = lacking.prefix(3).map(\.file.relativePath).joined(separator: ", ") + (lacking.count > 3 ? ", ..." : "")
            return createInstead(of: id, FailureReason(code: .replayLacksFiles, message: "Assembly \(id) does not hold \(names)", isRetryable: true),
                                 facts)
        }
        state = .creating(facts, attempt, signed)
        return Decision(.request(.replay(id, signed, files: facts.pending)))
    }

    /// Notes why `parent` is not replayed and starts a new attempt that creates an Assembly with the files.
    private mutating func createInstead(of parent: AssemblyID, _ reason: FailureReason, _ facts: Facts) -> Decision {
        var facts = facts
        facts.replaying = nil
        return enter(.planned, facts).after([.noteRetry(.replayRefused(parent: parent, reason)), .transition(.restarted, .restarted, .none)])
    }

    /// The failed Assembly's status at the API host.
    func parentURL(_ parent: AssemblyID) -> String {
        "\(settings.endpoint)/assemblies/\(parent)"
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
