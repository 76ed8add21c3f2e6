extension ShardStateMachine {
    /// Creates the attempt's Assembly with the pending files (or, for a replay, replays its parent on the uploads the service
    /// stored for them), unless the layout gives one of them an output
    /// that no file can have: that file fails alone instead, and the shard starts over without it.
    ///
    /// The creating request checks each file it sends in turn, and one that changed since the plan fails
    /// first: so before the refused file fails, the files up to it, itself included, are checked the same way.
    mutating func create(_ attempt: AttemptRecord, _ signed: SignedParams, _ facts: Facts) -> Decision {
        let files = facts.pending
        for (position, record) in files.enumerated() {
            guard let reason = settings.mapper.unwritableOutput(of: record.file) else { continue }
            var failure = ShardFailure(reason)
            failure.culprit = record.index
            // The same file under the same layout gets the same path every night: known bad until one of them changes.
            failure.culpritIsBad = true
            state = .refusingOutput(facts, failure)
            return Decision(.request(.checkUnchanged(Array(files[...position]))))
        }
        if let parent = facts.replaying {
            state = .checkingParent(facts, attempt, signed)
            return Decision(.request(.lookUp(url: parentURL(parent))))
        }
        state = .creating(facts, attempt, signed)
        return Decision(.request(.create(attempt.assemblyID, signed, files: files)))
    }
}
