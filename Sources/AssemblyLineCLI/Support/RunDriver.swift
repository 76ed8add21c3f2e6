import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import SQLiteLedger
#if canImport(Glibc)
import Glibc
#endif

/// Runs the unfinished shards of a recorded run to their end, and stops in order on a signal or at a deadline.
///
/// `run` and `resume` share it: the shards' ledger states decide what each one does next. The first
/// SIGINT/SIGTERM (or `--max-duration`) stops scheduling and cancels transfers in flight, marks the
/// run interrupted and gives exit 2; a second signal exits at once.
struct RunDriver {
    let manifest: Manifest
    let environment: RunEnvironment
    let runID: RunID
    let progress: RunProgress

    /// Runs `shards` to their end and returns how they ended: finished, failed (with the codes) or interrupted.
    ///
    /// The run records the same, except that a run with shards left that were not driven (a
    /// `resume --shard`) stays interrupted, so that a later `resume` continues them.
    func drive(_ shards: [ShardRecord], options: RunOptions, signals: TerminationSignal) async throws -> RunEnded {
        let clock = ContinuousClock()
        let started = clock.now
        var checkpoint: @Sendable (PipelineCheckpoint) -> Void = { _ in }
        if let killSwitch = options.killSwitch { checkpoint = killSwitch.checkpoint }
        let client = TransloaditClient(transport: environment.transport, endpoint: environment.endpoint)
        let context = PipelineContext(
            runID: runID, ledger: environment.ledger, client: client,
            downloader: ResultDownloader(client: client, digester: LibcryptoFileDigester()),
            signer: environment.signer,
            tus: manifest.upload.mode == .tus
                ? TusUploader(transport: environment.transport, digester: LibcryptoFileDigester(),
                              chunkSize: manifest.upload.chunkSize, retry: RetryPolicy(manifest.retry),
                              useChecksums: manifest.upload.checksums)
                : nil,
            params: AssemblyParams(key: environment.key, expiresIn: manifest.auth.expiresIn, recipe: manifest.recipe, notifyURL: manifest.notifyURL),
            governor: Governor(limits: manifest.limits, concurrency: manifest.concurrency),
            retry: RetryPolicy(manifest.retry), poll: manifest.poll, output: manifest.output,
            report: { [progress] in progress.report($0) },
            checkpoint: checkpoint,
            sent: { [progress] in progress.sent($0) })
        progress.start(shards)
        let scheduler = RunScheduler(context: context, concurrency: manifest.concurrency.assemblies)
        let work = Task { try await scheduler.run(shards) }
        let deadline = options.maxDuration.map { limit in
            Task {
                try await Task.sleep(for: limit)
                progress.console.error("run \(runID): --max-duration \(ConfigUnits.formatDuration(limit)) reached; stopping\n")
                work.cancel()
            }
        }
        let watcher = Task {
            let number = await signals.wait()
            progress.console.error("run \(runID): signal \(number); stopping (a second signal exits at once)\n")
            work.cancel()
            _ = await signals.wait()
            AssemblyLineTool.end(with: ErrorReporter.report(RunEnded(state: .interrupted), configuration: nil, console: progress.console))
        }
        let stats = options.statsInterval.map { interval in
            Task {
                while true {
                    try await Task.sleep(for: interval)
                    progress.stats()
                }
            }
        }
        defer {
            deadline?.cancel()
            watcher.cancel()
            stats?.cancel()
        }
        let interrupted: Bool
        do {
            _ = try await work.value
            interrupted = false
        } catch is CancellationError {
            interrupted = true
        }
        let failedFiles = try await environment.ledger.files(of: runID, shard: nil, state: .failed)
        let allShards = try await environment.ledger.shards(of: runID)
        let ended: RunState = interrupted ? .interrupted : failedFiles.isEmpty ? .finished : .failed
        let left = allShards.contains { $0.state != .downloaded && $0.state != .failed }
        try await environment.ledger.updateRunState(runID, to: ended == .finished && left ? .interrupted : ended, at: Date())
        progress.summary(try await environment.ledger.run(runID), elapsed: clock.now - started)
        return RunEnded(state: ended, failures: Set(failedFiles.compactMap(\.failure?.code) + allShards.compactMap(\.failure?.code)))
    }
}
