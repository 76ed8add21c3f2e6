extension ShardStateMachine {
    /// What happened: the outcome of the request the machine made last.
    package enum Event: Sendable, Hashable {
        /// The shard's last attempt, if it has one.
        case lastAttempt(AttemptRecord?)
        /// The shard's current attempt, if it has one, and the shard's files.
        case attempt(AttemptRecord?, files: [FileRecord])
        /// The shard's current attempt, its results of every attempt, and the shard's files.
        case downloadsLoaded(AttemptRecord?, results: [ResultRecord], files: [FileRecord])
        /// The shard's tus uploads, of every attempt.
        case tusUploadsLoaded([UploadRecord])
        /// A new attempt's intent is written, with this Assembly ID.
        case attemptRecorded(AssemblyID)
        case signed(SignedParams)
        /// An Assembly's status; nil when the service does not know it.
        case lookedUp(AssemblyStatus?)
        /// The files checked are as planned.
        case unchanged
        /// The answer to a creation: the Assembly's status, or why not.
        case createAnswered(Result<AssemblyStatus, TransloaditError>)
        /// A poll's answer; nil when the service no longer knows the Assembly.
        case statusAnswered(AssemblyStatus?)
        /// Every planned file is in the Assembly over tus.
        case tusUploaded(TusUploadTotals)
        /// Each download ended: in place and verified, or with why not.
        case downloadsEnded([DownloadOutcome])
        /// A wait is over.
        case waited
        /// The run's pace allows the status request now.
        case paced
        /// A wait for the change stream is over.
        case changeAwaited(AssemblyUpdateWatch.Wake)
        /// The run stopped creating Assemblies (``CreationGate``): no new attempt is recorded, no creation sent.
        case creationsStopped
        /// A request failed.
        case failed(ShardFailure)

        /// The Assembly status the event brings, if any.
        var status: AssemblyStatus? {
            switch self {
            case let .createAnswered(.success(status)), let .lookedUp(status?), let .statusAnswered(status?): status
            default: nil
            }
        }
    }

    /// How one result's download ended.
    package struct DownloadOutcome: Sendable, Hashable {
        package var record: ResultRecord
        /// Nil when the result is in place and verified.
        package var error: TransloaditError?

        package init(_ record: ResultRecord, error: TransloaditError?) {
            self.record = record
            self.error = error
        }
    }
}
