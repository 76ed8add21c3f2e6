extension ShardStateMachine {
    /// What happened: the outcome of the request the machine made last.
    package enum Event: Sendable, Hashable {
        /// The shard's last attempt, if it has one.
        case lastAttempt(AttemptRecord?)
        /// The shard's current attempt, if it has one.
        case attempt(AttemptRecord?)
        /// The shard's current attempt, and those of its results still to download.
        case downloadsLoaded(AttemptRecord?, pending: [ResultRecord])
        /// A new attempt's intent is written, with this Assembly ID.
        case attemptRecorded(AssemblyID)
        case signed(SignedParams)
        /// An Assembly's status; nil when the service does not know it.
        case lookedUp(AssemblyStatus?)
        /// The answer to a creation: the Assembly's status, or why not.
        case createAnswered(Result<AssemblyStatus, TransloaditError>)
        /// A poll's answer; nil when the service no longer knows the Assembly.
        case statusAnswered(AssemblyStatus?)
        /// Every file is in the Assembly over tus.
        case tusUploaded(detail: String)
        /// Every result of the attempt is in place and verified; `count` were fetched now.
        case downloaded(count: Int)
        /// The input failed alone; `othersLeft` of the shard's pending files remain.
        case isolated(culprit: String, othersLeft: Int)
        /// The input was not one of the shard's pending files: the failure is the shard's.
        case notIsolated
        /// A wait is over.
        case waited
        /// A request failed.
        case failed(ShardFailure)
    }
}
