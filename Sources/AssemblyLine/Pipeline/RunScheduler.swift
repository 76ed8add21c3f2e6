/// Runs the shards of a run, at most `concurrency` at once, each to its end; one shard's failure never stops the others,
/// but each end is counted by the run's breaker, which may stop the creations of those still to start (``FailureBreaker``).
package struct RunScheduler: Sendable {
    package let context: PipelineContext
    package let concurrency: Int

    package init(context: PipelineContext, concurrency: Int) {
        self.context = context
        self.concurrency = concurrency
    }

    /// How each shard ended, by index; throws `CancellationError` when the run is stopped.
    package func run(_ shards: [ShardRecord]) async throws -> [Int: ShardEnd] {
        var outcomes: [Int: ShardEnd] = [:]
        try await withThrowingTaskGroup(of: (Int, ShardEnd).self) { group in
            var pending = shards[...]
            func startNext() {
                guard let shard = pending.popFirst() else { return }
                let runner = ShardRunner(context: context, shard: shard)
                group.addTask { (shard.index, try await runner.run()) }
            }
            for _ in 0..<max(concurrency, 1) { startNext() }
            while let (index, end) = try await group.next() {
                outcomes[index] = end
                context.breaker.record(end)
                startNext()
            }
        }
        return outcomes
    }
}
