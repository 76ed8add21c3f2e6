/// An observer told nothing: what a takeover's following of another run's Assemblies reports to, before the run that
/// took over starts and says what it did (``StartedRun/takeover``).
struct SilentRunObserver: RunObserver {
    func planned(_ warnings: [PlanWarning]) {}
    func started(_ run: StartedRun) {}
    func report(_ event: ShardEvent) {}
    func waiting(_ wait: CreationWait) {}
    func sent(_ bytes: Int64) {}
    func stopping(_ reason: RunStop.Reason) {}
    func ended(_ outcome: RunOutcome) {}
}
