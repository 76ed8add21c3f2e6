import AssemblyLine
import ConfigFormat
import Foundation

/// The options `run` and `resume` share, read once (the shape of argument-parser's `@OptionGroup`).
struct RunOptions: Sendable {
    static let specs = [
        OptionSpec(name: "max-duration", valueName: "duration", help: "Stop in order after this long (such as 45m), as on a signal."),
        OptionSpec(name: "quiet", help: "Print nothing when every file is done, not even the plan's warnings; else the failures, the run ID and the summary.", short: "q"),
        OptionSpec(name: "verbose", help: "Print every step of every shard and every failure; without it, the first 20 failures and the summary.", short: "v"),
        OptionSpec(name: "log-format", valueName: "format", help: "text (default) or json, one object a line."),
        OptionSpec(name: "stats", valueName: "duration", help: "Print the figures so far (shards, files, bytes, rates, ETA) this often, such as 1m."),
        OptionSpec(name: "no-breaker", help: "Never stop creating Assemblies when the first shards fail alike (limits.failure_breaker)."),
        OptionSpec(name: "metrics-file", valueName: "path",
                   help: "At the end, write the run's figures for Prometheus' textfile collector here (else monitoring.metrics_file)."),
    ]

    var maxDuration: Duration?
    /// How often `--stats` prints the figures; nil for never.
    var statsInterval: Duration?
    var quiet: Bool
    var verbose: Bool
    /// `--metrics-file`: where the run's Prometheus figures go at its end (``MetricsFile``).
    var metricsFile: String?
    /// `--no-breaker`: the night creates every shard's Assembly however its first shards fail (``FailureBreaker``).
    var noBreaker: Bool
    #if DEBUG
    /// Set only by crash tests, through `ASSEMBLYLINE_KILL_AT`; a release build has no kill switch.
    var killSwitch: KillSwitch?
    #endif

    /// `manifest` as these options run it: without its failure breaker with `--no-breaker`.
    func applied(to manifest: Manifest) -> Manifest {
        guard noBreaker else { return manifest }
        var manifest = manifest
        manifest.failureBreaker = 0
        return manifest
    }

    init(_ values: ParsedValues) throws {
        quiet = values.flag("quiet")
        verbose = values.flag("verbose")
        if quiet && verbose { throw UsageError("--quiet and --verbose cannot be used together") }
        #if DEBUG
        killSwitch = try KillSwitch.from(environment: ProcessInfo.processInfo.environment)
        #endif
        // Checked here; the tool gives the console its JSON log from it before any command runs (``AssemblyLineTool``).
        _ = try values.choice("log-format", as: RunProgress.Format.self)
        statsInterval = try values.duration("stats", atLeast: .milliseconds(100))
        maxDuration = try values.duration("max-duration")
        metricsFile = values.option("metrics-file")
        noBreaker = values.flag("no-breaker")
    }
}
