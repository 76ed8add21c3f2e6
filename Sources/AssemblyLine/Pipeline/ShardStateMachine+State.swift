import Foundation

extension ShardStateMachine {
    /// Where the machine stands: what it waits for, with what it knows then.
    package indirect enum State: Sendable, Hashable {
        /// Nothing has started.
        case starting
        /// A failed shard reads its last attempt to choose where to go on from.
        case reopening(Facts)
        case recordingAttempt(Facts)
        /// Signing a new attempt's params (`attempt` nil), or signing again just before creating `attempt`.
        case signing(Facts, for: AttemptRecord?)
        /// Reading the attempt to create; `signed` holds params signed for it and not used yet.
        case loadingForCreation(Facts, signed: SignedParams?)
        /// Resumed at `signed`: whether the attempt's Assembly exists already.
        case checkingExisting(Facts, AttemptRecord)
        /// A pending file's output is one no file can have: once the files up to it are found unchanged, it fails alone (`failure`).
        case refusingOutput(Facts, ShardFailure)
        case creating(Facts, AttemptRecord, SignedParams)
        /// Before a replay: whether the failed Assembly it replays holds every pending file (its status's uploads).
        case checkingParent(Facts, AttemptRecord, SignedParams)
        /// The creation was refused as a reused ID: ours, if the Assembly exists.
        case confirmingTaken(Facts, AttemptRecord, TransloaditError)
        case loadingForTus(Facts)
        /// Asking at `url` whether the Assembly still takes uploads at `tusURL`.
        case checkingTus(Facts, AttemptRecord, url: String, tusURL: String)
        case loadingTusUploads(Facts, AttemptRecord, AssemblyStatus, tusURL: String)
        case uploadingTus(Facts, AssemblyStatus)
        /// Reading the attempt to poll; `statusIsFresh` when a status just came (with the creation or the
        /// tus check), so that the first poll waits for a change instead of asking again at once.
        case loadingForPoll(Facts, statusIsFresh: Bool)
        /// A poll waits for its turn in the run's pace of status requests.
        case pacing(Facts, Poll)
        case polling(Facts, Poll)
        case pausingPoll(Facts, Poll)
        case loadingForDownload(Facts)
        /// The completed attempt's results, those still to fetch being downloaded.
        case downloading(Facts, results: [ResultRecord])
        case backingOff(Facts, ShardFailure)
        /// A status request met a rate limit: after the wait, `request` is asked again from `state`, without using up a try.
        case askingAgain(State, Request)
        case finished(ShardState)

        /// What the machine knows in this state; nil before the start and after the end.
        var facts: Facts? {
            switch self {
            case .starting, .finished: nil
            case let .reopening(facts), let .recordingAttempt(facts), let .signing(facts, _), let .loadingForCreation(facts, _),
                 let .checkingExisting(facts, _), let .refusingOutput(facts, _), let .creating(facts, _, _), let .checkingParent(facts, _, _),
                 let .confirmingTaken(facts, _, _),
                 let .loadingForTus(facts), let .checkingTus(facts, _, _, _), let .loadingTusUploads(facts, _, _, _),
                 let .uploadingTus(facts, _), let .loadingForPoll(facts, _), let .pacing(facts, _), let .polling(facts, _),
                 let .pausingPoll(facts, _),
                 let .loadingForDownload(facts), let .downloading(facts, _), let .backingOff(facts, _):
                facts
            case let .askingAgain(state, _):
                state.facts
            }
        }
    }

    /// What the machine knows of its shard across states.
    package struct Facts: Sendable, Hashable {
        /// The ledger state as the machine last wrote or read it.
        var recorded: ShardState
        /// Failures so far that used up a try.
        var triesUsed = 0
        /// The current attempt's Assembly while it may still run: cancelled when the shard gives up on it.
        var running: AssemblyID?
        /// When the service accepted the running Assembly, when known.
        var runningSince: Date?
        /// The failed Assembly the current attempt replays; nil when it creates one (``ReplayRule``).
        var replaying: AssemblyID?
        /// The shard's files as the ledger last gave them, with the failures the machine wrote since.
        var files: [FileRecord] = []
        /// The change stream followed, if any, and whether it is still open.
        var stream: String?
        var streamIsLive = false
        /// The results started early, by step and id (or name).
        var prefetched: Set<String> = []

        /// The files not done, failed or skipped yet.
        var pending: [FileRecord] { files.filter { $0.state == .pending } }
    }

    /// A poll under way: where it asks, where it asks when that host is gone, until when, how often.
    package struct Poll: Sendable, Hashable {
        /// The Assembly's status URL: the machine the service named last.
        var url: String
        /// `<endpoint>/assemblies/<id>`, which always answers (docs: machines are cycled quickly).
        var fallback: String
        var deadline: Date
        var interval: Duration
        /// While waiting for the change stream: when the wait ends.
        var waitEnds: Date?
    }
}
