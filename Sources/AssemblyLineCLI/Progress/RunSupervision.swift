import AssemblyLine

/// Runs a run under the CLI's watch: the first SIGINT or SIGTERM asks it to stop in order (exit 2), a
/// second exits at once; `--stats` prints the figures so far now and then.
enum RunSupervision {
    static func run<T: Sendable>(_ signals: TerminationSignal, options: RunOptions, progress: RunProgress,
                                 _ body: (RunStop) async throws -> T) async throws -> T {
        let stop = RunStop()
        let watcher = Task {
            stop.request(.signal(await signals.wait()))
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
            watcher.cancel()
            stats?.cancel()
        }
        return try await body(stop)
    }
}
