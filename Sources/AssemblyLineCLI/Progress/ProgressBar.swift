import AssemblyLine
import ConfigFormat
import Synchronization

/// The one-line progress bar `run` and `resume` keep at the bottom of a terminal: shards and files done,
/// bytes sent, the rate and the time left.
///
/// Drawn only when standard output is a TTY (cron mail gets plain lines); the same figures make the
/// `--stats` lines. Event lines are printed above the bar: each write clears it, prints, and draws it again.
final class ProgressBar: Sendable {
    private struct Tally {
        var shards = 0
        var files = 0
        var filesByShard: [Int: Int] = [:]
        var done = 0
        var failed = 0
        var filesDone = 0
        var bytesSent: Int64 = 0
        var drawn = ContinuousClock.now
        var started = ContinuousClock.now
    }

    /// The least time between two redraws for bytes sent alone.
    static let redrawInterval = Duration.milliseconds(250)

    static let width = 24
    private let tally = Mutex(Tally())

    /// Sets the totals: the shards this invocation will drive.
    func start(_ shards: [ShardRecord]) {
        tally.withLock { tally in
            tally = Tally(shards: shards.count, files: shards.reduce(0) { $0 + $1.fileCount },
                          filesByShard: Dictionary(shards.map { ($0.index, $0.fileCount) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// Counts file bytes sent; true when the bar is due to be drawn again (at most every `redrawInterval`).
    func add(sent bytes: Int64) -> Bool {
        tally.withLock { tally in
            tally.bytesSent += bytes
            let now = ContinuousClock.now
            guard now - tally.drawn >= Self.redrawInterval else { return false }
            tally.drawn = now
            return true
        }
    }

    /// File bytes sent so far.
    var bytesSent: Int64 { tally.withLock { $0.bytesSent } }

    /// Counts a shard that ended.
    func record(_ event: ShardEvent) {
        tally.withLock { tally in
            switch event.kind {
            case .downloaded:
                tally.done += 1
                tally.filesDone += tally.filesByShard[event.shard] ?? 0
            case .failed:
                tally.failed += 1
            default:
                break
            }
        }
    }

    /// The bar as it is now, without a line break: `[#######.........]  3/8 shards, 1 failed  30/80 files  1.2 MiB up  …`.
    var line: String {
        tally.withLock { tally in
            let ended = tally.done + tally.failed
            let filled = tally.shards == 0 ? Self.width : Self.width * ended / tally.shards
            return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: Self.width - filled) + "]  "
                + Self.figures(tally)
        }
    }

    /// The figures without the bar, for `--stats`: `3/8 shards  30/80 files  1.2 MiB up  410 KiB/s  2.5 files/s  ETA 20s`.
    var figures: String {
        tally.withLock { Self.figures($0) }
    }

    /// Shards and files done, bytes sent, the rates since the start, and the time left at the rate of files done so far.
    private static func figures(_ tally: Tally) -> String {
        let ended = tally.done + tally.failed
        let failed = tally.failed > 0 ? ", \(tally.failed) failed" : ""
        let seconds = (ContinuousClock.now - tally.started).timeInterval
        var text = "\(ended)/\(CountText.of(tally.shards, "shard"))\(failed)  \(tally.filesDone)/\(CountText.of(tally.files, "file"))  "
            + "\(ByteCountText.format(tally.bytesSent)) up"
        guard seconds >= 1 else { return text }
        let filesPerSecond = Double(tally.filesDone) / seconds
        text += "  \(ByteCountText.format(Int64(Double(tally.bytesSent) / seconds)))/s  "
            + "\((filesPerSecond * 10).rounded() / 10) files/s"
        if filesPerSecond > 0, tally.filesDone < tally.files {
            let left = Double(tally.files - tally.filesDone) / filesPerSecond
            text += "  ETA \(ConfigUnits.formatDuration(.seconds(Int64(left.rounded(.up)))))"
        }
        return text
    }

    /// Clears the terminal line the bar is on.
    static let erase = "\r\u{1B}[K"
}
