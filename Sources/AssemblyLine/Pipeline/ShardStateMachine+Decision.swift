import Foundation

extension ShardStateMachine {
    /// What the driver is to do after an event: commands in order, then one request or the shard's end.
    ///
    /// The shape is the type's: a decision cannot end without a request or an end, nor hold two requests.
    package struct Decision: Sendable, Hashable {
        package var commands: [Command]
        package var next: Next

        package init(_ commands: [Command], _ next: Next) {
            self.commands = commands
            self.next = next
        }

        package init(_ next: Next) {
            self.init([], next)
        }

        /// The same decision with `earlier` done first.
        func after(_ earlier: [Command]) -> Decision {
            Decision(earlier + commands, next)
        }
    }

    /// How a decision ends.
    package enum Next: Sendable, Hashable {
        /// Carry out the request; its outcome is the next ``Event``.
        case request(Request)
        /// The shard's work is over, in this state.
        case finish(ShardState)
    }

    /// One thing to do that answers nothing.
    package enum Command: Sendable, Hashable {
        /// Write `transition` to the ledger, then report a `kind` event with `detail`.
        case transition(ShardTransition, ShardEvent.Kind, ShardEvent.Detail)
        /// Report an event without writing a transition.
        case report(ShardEvent.Kind, ShardEvent.Detail)
        /// Write that a step is tried again (the report's `retries` counts it), then report it.
        case noteRetry(ShardEvent.Detail)
        /// Pass a named crash checkpoint.
        case checkpoint(PipelineCheckpoint)
        /// Push every later creation of the run back by `duration` (the service said slow down).
        case backOffCreations(Duration)
        /// Cancel an Assembly the shard gives up on (`DELETE` at the API host), so that it stops costing,
        /// and note how that went; its failure changes nothing.
        case cancelAssembly(AssemblyID)
        /// Write the Assembly's status URL anew: the service named another machine for it.
        case recordStatusURL(String)
        /// Stop pacing the status requests of an Assembly that will not be polled again.
        case forgetStatusPacing(url: String)
        /// Write a tus upload URL the Assembly named for a file of the attempt, at offset 0.
        case recordUpload(attempt: Int, TusResumePlan.Renamed)
        /// Fail these inputs alone with `reason`; the shard goes on. `knownBad`: the next runs leave them out while they are unchanged.
        case failFiles([Int], FailureReason, knownBad: Bool = false)
        /// Follow the change stream at this URL (closing another), or none.
        case follow(stream: String?)
        /// Start downloading these results before the Assembly completes; the download step waits for them.
        case prefetch([NewResult])
        /// Note that the followed change stream ended: polling goes on alone.
        case noteStreamEnded(url: String, reason: String)
    }

    /// One thing to do whose outcome is the next ``Event``.
    package enum Request: Sendable, Hashable {
        /// Read the shard's last attempt: ``Event/lastAttempt(_:)``.
        case loadLastAttempt
        /// Read the shard's current attempt and its files: ``Event/attempt(_:files:)``.
        case loadAttempt
        /// Read the shard's current attempt, its results and its files: ``Event/downloadsLoaded(_:results:files:)``.
        case loadDownloads
        /// Read the shard's tus uploads: ``Event/tusUploadsLoaded(_:)``.
        case loadTusUploads
        /// Write a new attempt's intent with a fresh Assembly ID: ``Event/attemptRecorded(_:)``.
        case recordAttempt
        /// Write the intent of a new attempt that replays `of`, unless creations stopped for a reason that stops replays too:
        /// ``Event/attemptRecorded(_:)`` or ``Event/creationsStopped``.
        case recordReplay(of: AssemblyID)
        /// Sign fresh params: ``Event/signed(_:)`` or ``Event/failed(_:)``.
        case sign
        /// Sign fresh params of a replay (`reparse_template` 1, the fields, no instructions): ``Event/signed(_:)`` or ``Event/failed(_:)``.
        case signReplay
        /// Ask for an Assembly's status: ``Event/lookedUp(_:)`` or ``Event/failed(_:)``.
        case lookUp(url: String)
        /// Check that these files are as planned, in order (size and modification time, readable, not empty):
        /// ``Event/unchanged`` or ``Event/failed(_:)`` with the first that is not as its culprit.
        case checkUnchanged([FileRecord])
        /// Create the attempt's Assembly with these files (in the creating request, or announced for tus):
        /// ``Event/createAnswered(_:)`` or ``Event/failed(_:)``.
        case create(AssemblyID, SignedParams, files: [FileRecord])
        /// Replay the failed Assembly `parent` (its status was read: it holds every file), once the files the replay stands for
        /// are found unchanged:
        /// ``Event/createAnswered(_:)`` or ``Event/failed(_:)``.
        case replay(AssemblyID, SignedParams, files: [FileRecord])
        /// Wait until the run's pace allows one more status request of the Assembly at `url`: ``Event/paced``.
        case paceStatus(url: String)
        /// Ask for the status, with an answer within `within`: ``Event/statusAnswered(_:)`` or ``Event/failed(_:)``.
        case pollStatus(url: String, within: Duration)
        /// Upload these files of the attempt over tus: ``Event/tusUploaded(_:)`` or ``Event/failed(_:)``.
        case uploadByTus(attempt: Int, [TusResumePlan.Upload])
        /// Download these results, verified, once the prefetches have ended: ``Event/downloadsEnded(_:)``.
        case download([ResultRecord])
        /// Wait: ``Event/waited``.
        case wait(Duration)
        /// Wait until the followed change stream says something, or `atMost`: ``Event/changeAwaited(_:)``.
        case awaitChange(atMost: Duration)
    }
}
