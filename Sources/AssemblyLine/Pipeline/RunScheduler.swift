/// Runs the shards of a run, at most `concurrency` at once, each to its end; one shard's failure never stops the others.
package struct RunScheduler: Sendable {
    package let context: PipelineContext
    package let concurrency: Int

    package init(context: PipelineContext, concurrency: Int) {
        self.context = context
        self.concurrency = concurrency
    }

    /// The final state of each shard by index; throws `CancellationError` when the run is stopped.
    package func run(_ shards: [ShardRecord]) async throws -> [Int: ShardState] {
        var outcomes: [Int: ShardState] = [:]
        try await withThrowingTaskGroup(of: (Int, ShardState).self) { group in
            var pending = shards[...]
            func startNext() {
                guard let shard = pending.popFirst() else { return }
                let runner = ShardRunner(context: context, shard: shard)
                group.addTask { (shard.index, try await runner.run()) }
            }
            for _ in 0..<max(concurrency, 1) { startNext() }
            while let (index, state) = try await group.next() {
                outcomes[index] = state
                startNext()
            }
        }
        return outcomes
    }
}
