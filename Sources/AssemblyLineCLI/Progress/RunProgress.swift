import AssemblyLine
import ConfigFormat
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The CLI's observer of a run: prints its run ID, notes and summary, its first failures (every shard event
/// with `-v`), one line each (text or JSON), never a secret; with `--quiet` only failures and, when the run
/// did not finish, its ID and summary; records a new run in the run index.
///
/// On a terminal (text format, not `--quiet`) a progress bar stays below the lines. As JSON Lines (the
/// console's ``Console/json``), every line is one object with `time`, `event` and `run_id`, and `shard`,
/// `file`, `code`, `retryable` and `message` where they apply; failures go to standard error, the rest to
/// standard output. The plan's warnings are held until the run has its ID, so that its first line comes
/// first and a JSON warning names the run.
final class RunProgress: RunObserver {
    /// How lines are written: `--log-format`.
    enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    /// The run's ID, known from ``started(_:)`` on.
    private let id = Mutex<RunID?>(nil)
    /// The plan's warnings until the run starts (or never does: ``tellWarnings()``).
    private let warnings = Mutex<[PlanWarning]>([])
    /// The failures reported so far, said or not.
    private let failureCount = Mutex(0)
    let quiet: Bool
    /// Every event gets a line, not only those in ``shown``.
    let verbose: Bool
    let console: Console
    /// The figures, counted always; drawn as a bar on a terminal only (``drawsBar``).
    let tally: ProgressBar
    let drawsBar: Bool
    /// The bar when it is drawn.
    var bar: ProgressBar? { drawsBar ? tally : nil }
    /// Keeps the writes of one redraw together: events come from tasks, bytes from the transport's thread.
    private let screen = Mutex(())
    /// Where a new run is recorded, so that its ID alone finds it; nil for a resume.
    private let index: RunIndex?
    /// The monitor told of the run's start, if the manifest names one.
    private let pings: PingMonitor?

    /// - Parameter clock: the command's clock, for the bar's rates and time left.
    init(options: RunOptions, console: Console, clock: any PipelineClock, index: RunIndex?, pings: PingMonitor? = nil) {
        tally = ProgressBar(clock: clock)
        self.index = index
        self.pings = pings
        self.quiet = options.quiet
        self.verbose = options.verbose
        self.console = console
        drawsBar = console.json == nil && !quiet && isatty(STDOUT_FILENO) == 1
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
        self.warnings.withLock { $0 += warnings }
    }

    /// Says the plan's warnings not said yet: at the run's start, or after a run that never started (its preflight refused).
    func tellWarnings() {
        let held = warnings.withLock { held in
            defer { held = [] }
            return held
        }
        for warning in held {
            console.error("warning: \(warning)\n", members: ["path": .string(warning.path), "problem": .string(warning.problem)])
        }
    }

    func started(_ run: StartedRun) {
        id.withLock { $0 = run.runID }
        console.json?.about(run.runID)
        pings?.start(run.runID)
        announce()
        tellWarnings()
        if let takeover = run.takeover { note("run.takeover", Self.text(of: takeover)) }
        if case let .new(forecast) = run.origin {
            if let reason = index?.record(run.runID, stateDirectory: run.stateDirectory) {
                console.error("warning: run \(run.runID) is not in the run index (\(reason)); name its ledger with --state-dir \(run.stateDirectory)\n")
            }
            let skipped = forecast.incremental.skippedCount, redone = forecast.incremental.redone.count
            if skipped > 0 {
                note("run.skipped", "skipped \(CountText.of(skipped, "file")) an earlier run already did (use --force to run them)")
            }
            if let first = forecast.incremental.knownBad.first {
                let more = forecast.incremental.knownBad.count - 1
                note("run.known_bad", "left out \(CountText.of(more + 1, "known bad file")) an earlier run failed for a reason of its own, "
                    + "unchanged since (first: \(first.file.relativePath), \(first.reason.code)); --retry-failed sends them")
            }
            if let change = forecast.recipeChange {
                note("run.recipe_change", "recipe " + ForecastText.text(of: change))
            }
            if redone > 0 {
                note("run.redone", "running \(CountText.of(redone, "file")) again whose outputs are missing or changed since an earlier run")
            }
        }
        start(run.shards)
    }

    func stopping(_ reason: RunStop.Reason) {
        let (text, members): (String, [String: JSONValue]) = switch reason {
        case let .signal(number):
            ("run \(runID): signal \(number); stopping (a second signal exits at once)", ["signal": .integer(Int64(number))])
        case let .deadline(limit):
            ("run \(runID): --max-duration \(ConfigUnits.formatDuration(limit)) reached; stopping", ["max_duration_ms": .integer(limit.milliseconds)])
        }
        guard let json = console.json else { return console.error(text + "\n") }
        console.errorLine(json.object("run.stopping", message: text, members: members))
    }

    func ended(_ outcome: RunOutcome) {
        if let stop = outcome.creationStop { stopped(stop) }
        summary(outcome.summary, elapsed: outcome.elapsed)
    }

    /// What a takeover did, in one line.
    private static func text(of takeover: Takeover) -> String {
        "took over run \(takeover.run), whose process was gone: followed its \(CountText.of(takeover.followed, "Assembly")) to their end, "
            + "\(CountText.of(takeover.filesDone, "file")) done"
            + (takeover.lost > 0 ? "; \(takeover.lost) no longer known at the service or past their results' lifetime: their files are sent again" : "")
            + "; it is superseded by this run"
    }

    /// Says why the run stopped creating Assemblies, on standard error (it is why the night failed), even with `--quiet`.
    private func stopped(_ stop: CreationStop) {
        let text: String
        var members: [String: JSONValue] = [:]
        switch stop {
        case let .breaker(code, shards):
            text = "run \(runID) stopped creating Assemblies: its first \(shards) shards to end all failed with \(code), which a retry does "
                + "not mend; the others are left pending (mend the cause, then resume \(runID); --no-breaker runs every shard)"
            members = ["code": .string(code.rawValue), "shards": .integer(Int64(shards))]
        case let .localFault(reason):
            text = "run \(runID) stopped creating Assemblies: \(reason.message) (\(reason.code)); the others are left pending "
                + "(free the space or mend the output, then resume \(runID))"
            members = ["code": .string(reason.code.rawValue)]
        case .followingOnly:
            return
        }
        screen.withLock { _ in
            if bar != nil, console.json == nil { console.out(ProgressBar.erase) }
            guard let json = console.json else { return console.error("warning: " + text + "\n") }
            console.errorLine(json.object("run.stopped_creating", message: text, members: members))
        }
    }

    // MARK: - Lines

    /// The run's first line: its ID (text), or a `run.started` object; nothing with `--quiet`.
    private func announce() {
        guard !quiet else { return }
        console.line(console.json.map { $0.object("run.started").serialized } ?? runID.rawValue)
    }

    /// A `--stats` line: the figures so far, as text (`stats: …`) or a `run.stats` object.
    func stats() {
        guard id.withLock({ $0 }) != nil else { return }
        if let json = console.json { return console.line(json.object("run.stats", message: tally.figures).serialized) }
        screen.withLock { _ in
            if bar != nil { console.out(ProgressBar.erase) }
            console.line("stats: " + tally.figures)
            if let bar { console.out(bar.line) }
        }
    }

    /// A line about the run as a whole (files skipped, files run again); nothing with `--quiet`.
    private func note(_ event: String, _ text: String) {
        guard !quiet else { return }
        console.line(text, event: event)
    }

    /// Sets the bar's totals and draws it, on a terminal.
    private func start(_ shards: [ShardRecord]) {
        tally.start(shards)
        guard let bar else { return }
        console.out(bar.line)
    }

    /// Keeps a creation the run's pace holds back for the figures, redraws the bar, and, with `-v`, says when creations start to wait.
    func waiting(_ wait: CreationWait) {
        let stalls = tally.record(wait)
        guard verbose, stalls else {
            if let bar { screen.withLock { _ in console.out(ProgressBar.erase + bar.line) } }
            return
        }
        let text = CreationWaitText.line(wait)
        guard let json = console.json else {
            return screen.withLock { _ in
                if bar != nil { console.out(ProgressBar.erase) }
                console.line(text)
                if let bar { console.out(bar.line) }
            }
        }
        console.line(json.object("run.waiting", message: text, members: CreationWaitText.members(wait)).serialized)
    }

    /// Counts file bytes sent, and redraws the bar now and then, on a terminal.
    func sent(_ bytes: Int64) {
        guard tally.add(sent: bytes), let bar else { return }
        screen.withLock { _ in console.out(ProgressBar.erase + bar.line) }
    }

    /// The events that are failures: on stderr, and the only shard events said without `-v` (``failuresSaid`` of them).
    static let failures: Set<ShardEvent.Kind> = [.failed, .fileFailed]
    /// The failures said without `-v`, so that a night's output stays a short mail whatever its shards; a line
    /// before the summary counts the rest, which `report RUN --failed` lists.
    static let failuresSaid = 20

    /// A line for every event with `-v`; else a line for each of the first ``failuresSaid`` failures.
    func report(_ event: ShardEvent) {
        tally.record(event)
        let isFailure = Self.failures.contains(event.kind)
        guard verbose || isFailure && failureCount.withLock({ count in
            count += 1
            return count <= Self.failuresSaid
        }) else { return }
        let detail = ShardEventText.detail(event.detail)
        guard let json = console.json else {
            let line = "shard \(event.shard): \(event.kind.rawValue)" + (detail.isEmpty ? "" : " (\(detail))")
            return screen.withLock { _ in
                if bar != nil { console.out(ProgressBar.erase) }
                isFailure ? console.error(line + "\n") : console.line(line)
                if let bar { console.out(bar.line) }
            }
        }
        var members: [String: JSONValue] = ["shard": .integer(Int64(event.shard))]
        if let file = event.file { members["file"] = .string(file) }
        if let failure = event.failure {
            members["code"] = .string(failure.code.rawValue)
            members["retryable"] = .bool(failure.isRetryable)
        }
        let line = json.object("shard.\(event.kind.rawValue)", message: detail, members: members)
        isFailure ? console.errorLine(line) : console.line(line.serialized)
    }

    /// The run's end: how many failures went unsaid, and its summary line; with `--quiet`, nothing for a finished run
    /// (cron mails nothing), else the run ID first.
    private func summary(_ summary: RunSummary, elapsed: Duration) {
        if quiet && summary.record.state == .finished { return }
        let unsaid = verbose ? 0 : failureCount.withLock { $0 } - Self.failuresSaid
        let unsaidText = "\(CountText.of(unsaid, "more failure")) not shown; report \(runID) --failed lists the failed files"
        let shards = summary.shardsByState, files = summary.filesByState
        let text = "run \(runID) \(summary.record.state): shards \(shards[.downloaded] ?? 0) done, \(shards[.failed] ?? 0) failed, "
            + "\(summary.unfinishedShards - (shards[.failed] ?? 0)) unfinished; files \(files[.done] ?? 0) done, "
            + ((files[.noResult] ?? 0) > 0 ? "\(files[.noResult] ?? 0) no result, " : "")
            + "\(files[.failed] ?? 0) failed, \(files[.skipped] ?? 0) skipped, "
            + ((files[.knownBad] ?? 0) > 0 ? "\(files[.knownBad] ?? 0) known bad, " : "")
            + "\(files[.pending] ?? 0) pending; "
            + DurationText.format(elapsed)
        guard let json = console.json else {
            return screen.withLock { _ in
                if bar != nil { console.out(ProgressBar.erase) }
                if unsaid > 0 { console.error(unsaidText + "\n") }
                if quiet { console.line(runID.rawValue) }
                console.line(text)
            }
        }
        if unsaid > 0 { console.errorLine(json.object("run.failures_not_shown", message: unsaidText, members: ["count": .integer(Int64(unsaid))])) }
        if quiet { console.line(json.object("run.started").serialized) }
        console.line(json.object("run.summary", message: text, members: [
            "state": .string(summary.record.state.rawValue),
            "shards": .integer(Int64(summary.record.shardCount)), "shards_by_state": ReportJSON.counts(shards),
            "files": .integer(Int64(summary.record.fileCount)), "files_by_state": ReportJSON.counts(files),
            "bytes": .integer(summary.record.bytes), "bytes_sent": .integer(tally.bytesSent), "elapsed_ms": .integer(elapsed.milliseconds),
        ]).serialized)
    }
}
