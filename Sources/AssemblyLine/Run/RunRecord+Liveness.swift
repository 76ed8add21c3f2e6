extension RunRecord {
    /// The run as it stands in `stateDirectory`: `running` only while a process holds its job's lock for it. One whose
    /// process is gone (killed, or lost with its machine) is `interrupted`, as the next command that takes the lock
    /// records it: what `runs`, `report`, the history and `prune` show.
    package func seen(in stateDirectory: String) -> RunRecord {
        guard state == .running, RunLock.holder(at: RunLock.path(stateDirectory: stateDirectory, of: self), of: id) == nil else { return self }
        var seen = self
        seen.state = .interrupted
        return seen
    }
}
