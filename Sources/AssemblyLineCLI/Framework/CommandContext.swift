import AssemblyLine

/// What a command runs with beside its values: where it writes, and the one clock the CLI reads the time from.
struct CommandContext: Sendable {
    var console: Console
    /// The time of day for cutoffs (`--since`, `--older-than`), a page's date and a log line's; a run's own clock is its ports'.
    var clock: any PipelineClock = SystemClock()

    /// How the commands that read a manifest's remote inputs as they are now reach them.
    var remoteInputs: any RemoteInputAccess { RemoteInputWiring(clock: clock) }
}
