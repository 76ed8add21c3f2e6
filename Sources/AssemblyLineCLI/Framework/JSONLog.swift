import AssemblyLine
import ConfigFormat
import Synchronization

/// What makes a command's log JSON Lines (`--log-format json`): every object's `time`, from the command's
/// clock, and its `run_id` once a run has one.
///
/// One instance serves a command's console and its run's observer, so that an error reported after the
/// run started (a ledger that failed mid-run) names the run as the run's own lines do.
final class JSONLog: Sendable {
    private let clock: any PipelineClock
    private let run = Mutex<RunID?>(nil)

    init(clock: any PipelineClock) {
        self.clock = clock
    }

    /// The run every later object is about.
    func about(_ runID: RunID) {
        run.withLock { $0 = runID }
    }

    /// The object of `event`: its `time`, `run_id` when a run started, `message` when there is one, and `members`.
    func object(_ event: String, message: String = "", members: [String: JSONValue] = [:]) -> JSONValue {
        var object = members
        object["time"] = .string(UTCDateTime(clock.now).iso8601Text)
        object["event"] = .string(event)
        if let runID = run.withLock({ $0 }) { object["run_id"] = .string(runID.rawValue) }
        if !message.isEmpty { object["message"] = .string(message) }
        return .object(object)
    }
}
