import AssemblyLine
import ConfigFormat
import Synchronization

/// The one-line progress bar `run` and `resume` keep at the bottom of a terminal: shards and files done,
/// bytes sent, the rate, a creation wait under way and the time left.
///
/// Drawn only when standard output is a TTY (cron mail gets plain lines); the same figures make the
/// `--stats` lines. Event lines are printed above the bar: each write clears it, prints, and draws it again.
/// What it counts, and the time left, is the domain's ``RunTally``; the bar adds the bytes sent and the words.
final class ProgressBar: Sendable {
    private struct State {
        var run: RunTally
        var bytesSent: Int64 = 0
        var drawn: ContinuousClock.Instant
    }

    /// The least time between two redraws for bytes sent alone.
    static let redrawInterval = Duration.milliseconds(250)

    static let width = 24
    /// The command's clock: the instants the run's governor tells its waits in.
    private let clock: any PipelineClock
    private let state: Mutex<State>

    init(clock: any PipelineClock) {
        self.clock = clock
        state = Mutex(State(run: RunTally(at: clock.instant), drawn: clock.instant))
    }

    /// Sets the totals: the shards this invocation will drive.
    func start(_ shards: [ShardRecord]) {
        let now = clock.instant
        state.withLock { $0 = State(run: RunTally(shards: shards, at: now), drawn: now) }
    }

    /// Counts file bytes sent; true when the bar is due to be drawn again (at most every `redrawInterval`).
    func add(sent bytes: Int64) -> Bool {
        let now = clock.instant
        return state.withLock { state in
            state.bytesSent += bytes
            guard now - state.drawn >= Self.redrawInterval else { return false }
            state.drawn = now
            return true
        }
    }

    /// File bytes sent so far.
    var bytesSent: Int64 { state.withLock { $0.bytesSent } }

    /// Counts a shard that ended.
    func record(_ event: ShardEvent) {
        state.withLock { $0.run.record(event) }
    }

    /// Keeps a creation the run's pace holds back; true when it starts a stall (no wait was under way when it asked).
    func record(_ wait: CreationWait) -> Bool {
        state.withLock { state in
            defer { state.run.record(wait) }
            return state.run.waiting(at: wait.asked) == nil
        }
    }

    /// The bar as it is now, without a line break: `[#######.........]  3/8 shards, 1 failed  30/80 files  1.2 MiB up  …`.
    var line: String {
        let now = clock.instant
        return state.withLock { state in
            let run = state.run
            let ended = run.shardsDone + run.shardsFailed
            let filled = run.shards == 0 ? Self.width : Self.width * ended / run.shards
            return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: Self.width - filled) + "]  "
                + Self.figures(state, at: now)
        }
    }

    /// The figures without the bar, for `--stats`: `3/8 shards  30/80 files  1.2 MiB up  410 KiB/s  2.5 files/s  ETA 20s`.
    var figures: String {
        let now = clock.instant
        return state.withLock { Self.figures($0, at: now) }
    }

    /// Shards and files done, bytes sent, the rates since the start, a creation wait under way, and the time left.
    private static func figures(_ state: State, at now: ContinuousClock.Instant) -> String {
        let run = state.run
        let ended = run.shardsDone + run.shardsFailed
        let failed = run.shardsFailed > 0 ? ", \(run.shardsFailed) failed" : ""
        var text = "\(ended)/\(CountText.of(run.shards, "shard"))\(failed)  \(run.filesDone)/\(CountText.of(run.files, "file"))  "
            + "\(ByteCountText.format(state.bytesSent)) up"
        if let filesPerSecond = run.filesPerSecond(at: now) {
            text += "  \(ByteCountText.format(Int64(Double(state.bytesSent) / (run.elapsed(at: now) / .seconds(1)))))/s  "
                + "\((filesPerSecond * 10).rounded() / 10) files/s"
        }
        if let wait = run.waiting(at: now) { text += "  " + CreationWaitText.figure(wait, at: now) }
        if let left = run.timeLeft(at: now) {
            text += "  ETA \(DurationText.format(left))"
        }
        return text
    }

    /// Clears the terminal line the bar is on.
    static let erase = "\r\u{1B}[K"
}
