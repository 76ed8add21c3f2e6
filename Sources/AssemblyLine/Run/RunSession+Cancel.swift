extension RunSession {
    /// An Assembly of a canceled run that the endpoint would not cancel.
    package struct CancelRefusal: Sendable {
        package var shard: Int
        package var assemblyID: AssemblyID
        package var error: TransloaditError
    }

    /// Cancels every Assembly of `runID` that was created and has not ended (each shard's open attempt)
    /// with `DELETE` at the endpoint, and records the run canceled (final) unless that was recorded before
    /// its process was stopped; returns how many were cancelled, and those the endpoint refused.
    ///
    /// The run's own process must have stopped: this takes the run's lock.
    package func cancel(_ runID: RunID) async throws -> (cancelled: Int, refused: [CancelRefusal]) {
        let lock = try RunLock(stateDirectory: stateDirectory, manifest: manifest)
        defer { lock.release() }
        return try await adapters.withPorts(for: manifest, stateDirectory: stateDirectory) { ports in
            lock.record(runID: runID)
            let client = TransloaditClient(transport: ports.transport, endpoint: ports.endpoint)
            var cancelled = 0
            var refused: [CancelRefusal] = []
            for shard in try await ports.ledger.shards(of: runID) {
                for attempt in try await ports.ledger.attempts(of: runID, shard: shard.index) where attempt.outcome == .open && attempt.createdAt != nil {
                    do throws(TransloaditError) {
                        _ = try await client.cancel(url: "\(ports.endpoint)/assemblies/\(attempt.assemblyID)")
                        cancelled += 1
                    } catch {
                        refused.append(CancelRefusal(shard: shard.index, assemblyID: attempt.assemblyID, error: error))
                    }
                }
            }
            _ = try await ports.ledger.endRun(runID, as: .canceled, at: ports.clock.now)
            return (cancelled, refused)
        }
    }
}
