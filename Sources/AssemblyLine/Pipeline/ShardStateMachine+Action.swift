extension ShardStateMachine {
    /// One thing the driver is asked to do.
    ///
    /// Commands are done in order and answer nothing; a request ends the list the machine
    /// returned, and its outcome comes back as the next ``Event``.
    package enum Action: Sendable, Hashable {
        // MARK: Commands

        /// Write `transition` to the ledger, then report `event` with `detail`.
        case transition(ShardTransition, ShardEvent.Kind, detail: String)
        /// Write that the service accepted the attempt's Assembly (its status URL, else `fallbackURL`),
        /// with the bytes the creating request carried.
        case recordCreated(AssemblyStatus, fallbackURL: String)
        /// Write the Assembly's results (mapped to the shard's files and their output paths) and `completed`.
        case recordCompletion(AssemblyStatus)
        /// Report an event without writing a transition.
        case report(ShardEvent.Kind, detail: String, file: String? = nil, failure: FailureReason? = nil)
        /// Pass a named crash checkpoint.
        case checkpoint(PipelineCheckpoint)
        /// Push every later creation of the run back by `duration` (the service said slow down).
        case backOffCreations(Duration)
        /// Cancel an Assembly the shard gives up on (`DELETE` at the API host), so that it stops costing;
        /// its failure changes nothing.
        case cancelAssembly(AssemblyID)
        /// Write the Assembly's status URL anew: the service named another machine for it.
        case recordStatusURL(String)
        /// Stop pacing the status requests of an Assembly that will not be polled again.
        case forgetStatusPacing(url: String)

        // MARK: Requests

        /// Read the shard's last attempt: ``Event/lastAttempt(_:)``.
        case loadLastAttempt
        /// Read the shard's current attempt: ``Event/attempt(_:)``.
        case loadAttempt
        /// Read the shard's current attempt and its results still to download: ``Event/downloadsLoaded(_:pending:)``.
        case loadDownloads
        /// Write a new attempt's intent with a fresh Assembly ID: ``Event/attemptRecorded(_:)``.
        case recordAttempt
        /// Sign fresh params: ``Event/signed(_:)`` or ``Event/failed(_:)``.
        case sign
        /// Ask for an Assembly's status (waiting out rate limits): ``Event/lookedUp(_:)`` or ``Event/failed(_:)``.
        case lookUp(url: String)
        /// Create the attempt's Assembly with the shard's pending files: ``Event/createAnswered(_:)`` or ``Event/failed(_:)``.
        case create(AssemblyID, SignedParams)
        /// Ask for the status once the run's pace allows: ``Event/statusAnswered(_:)`` or ``Event/failed(_:)``.
        case pollStatus(url: String)
        /// Upload the shard's files that the Assembly lacks over tus: ``Event/tusUploaded(detail:)`` or ``Event/failed(_:)``.
        case uploadByTus(AttemptRecord, AssemblyStatus)
        /// Download these results, verified: ``Event/downloaded(count:)`` or ``Event/failed(_:)``.
        case download([ResultRecord])
        /// Fail one input alone if it is one of the shard's pending files: ``Event/isolated(culprit:othersLeft:)`` or ``Event/notIsolated``.
        case isolate(file: Int, FailureReason)
        /// Wait: ``Event/waited``.
        case wait(Duration)
        /// Wait before the next status request: `Duration` when polling alone, until the Assembly's change
        /// stream says it changed (or a longer safety interval) while the stream is open: ``Event/waited``.
        case awaitChange(Duration)
        /// The shard's work is over, in this state.
        case finish(ShardState)
    }
}
