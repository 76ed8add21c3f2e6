import AssemblyLine
import Synchronization

/// The one-line progress bar `run` and `resume` keep at the bottom of a terminal: shards and files done, bytes sent.
///
/// Only used when standard output is a TTY (cron mail gets plain lines). Event lines are printed above
/// it: each write clears the bar, prints, and draws the bar again.
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

    /// The bar as it is now, without a line break: `[#######.........]  3/8 shards, 1 failed  30/80 files  1.2 MiB up`.
    var line: String {
        tally.withLock { tally in
            let ended = tally.done + tally.failed
            let filled = tally.shards == 0 ? Self.width : Self.width * ended / tally.shards
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: Self.width - filled)
            let failed = tally.failed > 0 ? ", \(tally.failed) failed" : ""
            return "[\(bar)]  \(ended)/\(tally.shards) shards\(failed)  \(tally.filesDone)/\(tally.files) files  "
                + "\(ByteCountText.format(tally.bytesSent)) up"
        }
    }

    /// Clears the terminal line the bar is on.
    static let erase = "\r\u{1B}[K"
}
