/// What a run tells as it goes: the plan's warnings, its start, each shard event, creations held back by its pace,
/// bytes sent, a stop, and its end.
///
/// Implementation requirements: called from the run's tasks and (``sent(_:)``) from the transport's
/// thread; no call may block. The CLI words each for a terminal, a JSON line or the run index.
package protocol RunObserver: Sendable {
    /// Inputs the plan left out or a run fails alone (unreadable, too long a path), once the run knows which files it sends
    /// (a resume: the walk's), before anything is recorded.
    func planned(_ warnings: [PlanWarning])
    /// The run is recorded (or taken up again by a resume) and its shards are about to go.
    func started(_ run: StartedRun)
    func report(_ event: ShardEvent)
    /// A creation waits for the run's pace (the creations budget, or the service's rate limit), told before it waits.
    func waiting(_ wait: CreationWait)
    /// File bytes sent since the last call.
    func sent(_ bytes: Int64)
    /// The run stops before its end, for `reason`; transfers in flight are cancelled.
    func stopping(_ reason: RunStop.Reason)
    /// The run's end, recorded.
    func ended(_ outcome: RunOutcome)
}
