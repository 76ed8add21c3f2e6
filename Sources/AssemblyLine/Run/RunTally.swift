/// How far a run has come and how long it has left, counted from what its observer is told: the figures of a
/// progress bar and of `--stats`.
///
/// The time left is at the rate of the files done so far, and never less than the run's pace makes its last
/// shards wait: under a creations budget a run stalls while its rate of files done says seconds (300 shards at
/// 200 a minute wait a minute for the last 100), so the wait the governor told (``CreationWait/lastCreation``)
/// bounds it from below.
package struct RunTally: Sendable {
    /// The shards this process drives, and their files.
    package private(set) var shards = 0
    package private(set) var files = 0
    package private(set) var shardsDone = 0
    package private(set) var shardsFailed = 0
    package private(set) var filesDone = 0
    /// The last creation the run's pace held back: its ``CreationWait/lastCreation`` is the latest told.
    package private(set) var lastWait: CreationWait?
    /// The creations held back that may not have gone yet (several shards wait at once).
    private var waits: [CreationWait] = []
    private var filesByShard: [Int: Int] = [:]
    private let start: ContinuousClock.Instant

    /// A tally of `shards`, started at `start`.
    package init(shards: [ShardRecord] = [], at start: ContinuousClock.Instant) {
        self.start = start
        self.shards = shards.count
        files = shards.reduce(0) { $0 + $1.fileCount }
        filesByShard = Dictionary(shards.map { ($0.index, $0.fileCount) }, uniquingKeysWith: { first, _ in first })
    }

    /// Counts a shard that ended.
    package mutating func record(_ event: ShardEvent) {
        switch event.kind {
        case .downloaded:
            shardsDone += 1
            filesDone += filesByShard[event.shard] ?? 0
        case .failed:
            shardsFailed += 1
        default:
            break
        }
    }

    /// Keeps a creation the run's pace held back.
    package mutating func record(_ wait: CreationWait) {
        waits.removeAll { $0.until <= wait.asked }
        waits.append(wait)
        lastWait = wait
    }

    /// The creation wait under way at `now` that ends first, if one is: when the next creation may go.
    package func waiting(at now: ContinuousClock.Instant) -> CreationWait? {
        waits.filter { $0.until > now }.min { $0.until < $1.until }
    }

    /// How long the run has run at `now`.
    package func elapsed(at now: ContinuousClock.Instant) -> Duration {
        start.duration(to: now)
    }

    /// The files done a second since the start, once a second has passed.
    package func filesPerSecond(at now: ContinuousClock.Instant) -> Double? {
        let seconds = elapsed(at: now) / .seconds(1)
        return seconds >= 1 ? Double(filesDone) / seconds : nil
    }

    /// The time left at `now`: at the rate of files done so far, and at least until the last creation ahead may go;
    /// nil when nothing is left, or neither says yet (no file done, no wait).
    package func timeLeft(at now: ContinuousClock.Instant) -> Duration? {
        guard filesDone < files else { return nil }
        let paced = lastWait.map { now.duration(to: $0.lastCreation) }.flatMap { $0 > .zero ? $0 : nil }
        let rated = filesPerSecond(at: now).flatMap { $0 > 0 ? Duration.seconds(Double(files - filesDone) / $0) : nil }
        return [paced, rated].compactMap { $0 }.max()
    }
}
