import AssemblyLine
import ConfigFormat
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The CLI's observer of a run: prints its shard events, one line each (text or JSON), only failures
/// with `--quiet` (no plan warnings either), never a secret; records a new run in the run index.
///
/// On a terminal (text format, not `--quiet`) a progress bar stays below the lines. As JSON Lines,
/// every line is one object with `time`, `event` and `run_id`, and `shard`, `file`, `code`,
/// `retryable` and `message` where they apply; failures go to standard error, the rest to standard output.
final class RunProgress: RunObserver {
    /// How lines are written.
    enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    /// The run's ID, known from ``started(_:)`` on.
    private let id = Mutex<RunID?>(nil)
    let format: Format
    let quiet: Bool
    /// Every event gets a line, not only those in ``shown``.
    let verbose: Bool
    let console: Console
    /// The figures, counted always; drawn as a bar on a terminal only (``drawsBar``).
    let tally = ProgressBar()
    let drawsBar: Bool
    /// The bar when it is drawn.
    var bar: ProgressBar? { drawsBar ? tally : nil }
    /// Keeps the writes of one redraw together: events come from tasks, bytes from the transport's thread.
    private let screen = Mutex(())
    /// Where a new run is recorded, so that its ID alone finds it; nil for a resume.
    private let index: RunIndex?
    /// The monitor told of the run's start, if the manifest names one.
    private let pings: PingMonitor?
    /// The time a JSON line says.
    private let clock: any PipelineClock

    init(options: RunOptions, console: Console, clock: any PipelineClock, index: RunIndex?, pings: PingMonitor? = nil) {
        self.index = index
        self.clock = clock
        self.pings = pings
        self.format = options.logFormat
        self.quiet = options.quiet
        self.verbose = options.verbose
        self.console = console
        drawsBar = format == .text && !quiet && isatty(STDOUT_FILENO) == 1
    }

    var runID: RunID {
        guard let runID = startedRunID else { preconditionFailure("a run's lines come after its start") }
        return runID
    }

    /// The run's ID once it started; nil before (a plan error, a held lock).
    var startedRunID: RunID? { id.withLock { $0 } }

    // MARK: - RunObserver

    /// The plan's warnings; none with `--quiet`: they repeat unchanged every night the tree does (a file
    /// named in capitals, an exclude that matches nothing), and `plan` and a run without `-q` say them.
    func planned(_ warnings: [PlanWarning]) {
        guard !quiet else { return }
        for warning in warnings { console.error("warning: \(warning)\n") }
    }

    func started(_ run: StartedRun) {
        id.withLock { $0 = run.runID }
        pings?.start(run.runID)
        announce()
        if case let .new(forecast) = run.origin {
            if let reason = index?.record(run.runID, stateDirectory: run.stateDirectory) {
                console.error("warning: run \(run.runID) is not in the run index (\(reason)); name its ledger with --state-dir \(run.stateDirectory)\n")
            }
            let skipped = forecast.incremental.skipped.count, redone = forecast.incremental.redone.count
            if skipped > 0 {
                note("run.skipped", "skipped \(CountText.of(skipped, "file")) an earlier run already did (use --force to run them)")
            }
            if let first = forecast.incremental.knownBad.first {
                let more = forecast.incremental.knownBad.count - 1
                note("run.known_bad", "left out \(CountText.of(more + 1, "known bad file")) an earlier run failed for a reason of its own, "
                    + "unchanged since (first: \(first.file.relativePath), \(first.reason.code)); --retry-failed sends them")
            }
            if redone > 0 {
                note("run.redone", "running \(CountText.of(redone, "file")) again whose outputs are missing or changed since an earlier run")
            }
        }
        start(run.shards)
    }

    func stopping(_ reason: RunStop.Reason) {
        switch reason {
        case let .signal(number):
            console.error("run \(runID): signal \(number); stopping (a second signal exits at once)\n")
        case let .deadline(limit):
            console.error("run \(runID): --max-duration \(ConfigUnits.formatDuration(limit)) reached; stopping\n")
        }
    }

    func ended(_ outcome: RunOutcome) {
        summary(outcome.summary, elapsed: outcome.elapsed)
    }

    // MARK: - Lines

    /// The run's first line: its ID (text), or a `run.started` object; nothing with `--quiet`.
    private func announce() {
        guard !quiet else { return }
        switch format {
        case .text: console.line(runID.rawValue)
        case .json: console.line(object("run.started", message: "").serialized)
        }
    }

    /// A `--stats` line: the figures so far, as text (`stats: …`) or a `run.stats` object.
    func stats() {
        guard id.withLock({ $0 }) != nil else { return }
        switch format {
        case .text:
            screen.withLock { _ in
                if bar != nil { console.out(ProgressBar.erase) }
                console.line("stats: " + tally.figures)
                if let bar { console.out(bar.line) }
            }
        case .json:
            console.line(object("run.stats", message: tally.figures).serialized)
        }
    }

    /// A line about the run as a whole (files skipped, files run again); nothing with `--quiet`.
    private func note(_ event: String, _ text: String) {
        guard !quiet else { return }
        switch format {
        case .text: console.line(text)
        case .json: console.line(object(event, message: text).serialized)
        }
    }

    /// A JSON line's object: its time, event and run, and `message` when there is one.
    private func object(_ event: String, message: String, more: [String: JSONValue] = [:]) -> JSONValue {
        var members: [String: JSONValue] = ["time": .string(UTCDateTime(clock.now).iso8601Text), "event": .string(event),
                                            "run_id": .string(runID.rawValue)]
        if !message.isEmpty { members["message"] = .string(message) }
        return .object(members.merging(more) { $1 })
    }

    /// Sets the bar's totals and draws it, on a terminal.
    private func start(_ shards: [ShardRecord]) {
        tally.start(shards)
        guard let bar else { return }
        console.out(bar.line)
    }

    /// Counts file bytes sent, and redraws the bar now and then, on a terminal.
    func sent(_ bytes: Int64) {
        guard tally.add(sent: bytes), let bar else { return }
        screen.withLock { _ in console.out(ProgressBar.erase + bar.line) }
    }

    /// The events worth a line: what a shard started, finished, retried or failed with; `uploaded` only with
    /// a detail (tus uploads say what they sent; a multipart creation uploads as it is created).
    static let shown: Set<ShardEvent.Kind> = [.created, .completed, .downloaded, .retrying, .restarted, .failed, .fileFailed]

    static func isShown(_ event: ShardEvent) -> Bool {
        shown.contains(event.kind) || (event.kind == .uploaded && event.detail != .none)
    }
    /// The events that are failures: on stderr, and shown even with `--quiet`.
    static let failures: Set<ShardEvent.Kind> = [.failed, .fileFailed]

    func report(_ event: ShardEvent) {
        tally.record(event)
        guard verbose || Self.isShown(event), !quiet || Self.failures.contains(event.kind) else { return }
        let detail = ShardEventText.detail(event.detail)
        switch format {
        case .text:
            let line = "shard \(event.shard): \(event.kind.rawValue)" + (detail.isEmpty ? "" : " (\(detail))")
            screen.withLock { _ in
                if bar != nil { console.out(ProgressBar.erase) }
                Self.failures.contains(event.kind) ? console.error(line + "\n") : console.line(line)
                if let bar { console.out(bar.line) }
            }
        case .json:
            var more: [String: JSONValue] = ["shard": .integer(Int64(event.shard))]
            if let file = event.file { more["file"] = .string(file) }
            if let failure = event.failure {
                more["code"] = .string(failure.code.rawValue)
                more["retryable"] = .bool(failure.isRetryable)
            }
            let line = object("shard.\(event.kind.rawValue)", message: detail, more: more)
            Self.failures.contains(event.kind) ? console.errorLine(line) : console.line(line.serialized)
        }
    }

    /// The run's end: its summary line; with `--quiet`, nothing for a finished run (cron mails nothing), else the run ID first.
    private func summary(_ summary: RunSummary, elapsed: Duration) {
        if quiet && summary.record.state == .finished { return }
        let shards = summary.shardsByState, files = summary.filesByState
        let text = "run \(runID) \(summary.record.state): shards \(shards[.downloaded] ?? 0) done, \(shards[.failed] ?? 0) failed, "
            + "\(summary.unfinishedShards - (shards[.failed] ?? 0)) unfinished; files \(files[.done] ?? 0) done, "
            + ((files[.noResult] ?? 0) > 0 ? "\(files[.noResult] ?? 0) no result, " : "")
            + "\(files[.failed] ?? 0) failed, \(files[.skipped] ?? 0) skipped, "
            + ((files[.knownBad] ?? 0) > 0 ? "\(files[.knownBad] ?? 0) known bad, " : "")
            + "\(files[.pending] ?? 0) pending; "
            + "\(ConfigUnits.formatDuration(elapsed))"
        switch format {
        case .text:
            screen.withLock { _ in
                if bar != nil { console.out(ProgressBar.erase) }
                if quiet { console.line(runID.rawValue) }
                console.line(text)
            }
        case .json:
            if quiet { console.line(object("run.started", message: "").serialized) }
            console.line(object("run.summary", message: text, more: ["state": .string(summary.record.state.rawValue)]).serialized)
        }
    }
}
