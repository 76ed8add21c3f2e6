import AssemblyLine
import ConfigFormat
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Prints a run's shard events: one line each (text or JSON), only failures with `--quiet`; never a secret.
///
/// On a terminal (text format, not `--quiet`) a progress bar stays below the lines. As JSON Lines,
/// every line is one object with `time`, `event` and `run_id`, and `shard`, `file`, `code`,
/// `retryable` and `message` where they apply; failures go to standard error, the rest to standard output.
final class RunProgress: Sendable {
    /// How lines are written.
    enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    let runID: RunID
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

    init(runID: RunID, options: RunOptions, console: Console) {
        self.runID = runID
        self.format = options.logFormat
        self.quiet = options.quiet
        self.verbose = options.verbose
        self.console = console
        drawsBar = format == .text && !quiet && isatty(STDOUT_FILENO) == 1
    }

    /// The run's first line: its ID (text), or a `run.started` object; nothing with `--quiet`.
    func announce() {
        guard !quiet else { return }
        switch format {
        case .text: console.line(runID.rawValue)
        case .json: console.line(object("run.started", message: "").serialized)
        }
    }

    /// A `--stats` line: the figures so far, as text (`stats: …`) or a `run.stats` object.
    func stats() {
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
    func note(_ event: String, _ text: String) {
        guard !quiet else { return }
        switch format {
        case .text: console.line(text)
        case .json: console.line(object(event, message: text).serialized)
        }
    }

    /// A JSON line's object: its time, event and run, and `message` when there is one.
    private func object(_ event: String, message: String, more: [String: JSONValue] = [:]) -> JSONValue {
        var members: [String: JSONValue] = ["time": .string(UTCDateTime(Date()).iso8601Text), "event": .string(event),
                                            "run_id": .string(runID.rawValue)]
        if !message.isEmpty { members["message"] = .string(message) }
        return .object(members.merging(more) { $1 })
    }

    /// Sets the bar's totals and draws it, on a terminal.
    func start(_ shards: [ShardRecord]) {
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

    /// The closing summary, from the ledger's counts.
    /// The run's end: its summary line; with `--quiet`, nothing for a finished run (cron mails nothing), else the run ID first.
    func summary(_ summary: RunSummary, elapsed: Duration) {
        if quiet && summary.record.state == .finished { return }
        let shards = summary.shardsByState, files = summary.filesByState
        let text = "run \(runID) \(summary.record.state): shards \(shards[.downloaded] ?? 0) done, \(shards[.failed] ?? 0) failed, "
            + "\(summary.unfinishedShards - (shards[.failed] ?? 0)) unfinished; files \(files[.done] ?? 0) done, "
            + ((files[.noResult] ?? 0) > 0 ? "\(files[.noResult] ?? 0) no result, " : "")
            + "\(files[.failed] ?? 0) failed, \(files[.skipped] ?? 0) skipped, \(files[.pending] ?? 0) pending; "
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
