/// What a line of a run's history is about; the raw values are what the `events.kind` column holds.
package enum LedgerEventKind: String, Sendable, Hashable, CaseIterable {
    case runCreated = "run.created"
    /// The run moved from one state to another.
    case runState = "run.state"
    /// A resumed run follows an edit of its Template's file: its recipe fingerprint is the new one (version 15).
    case runRecipe = "run.recipe"
    /// A shard moved from one state to another.
    case shardState = "shard.state"
    /// A shard's attempt wrote its intent.
    case attemptStarted = "attempt.started"
    /// The service named another machine for the attempt's Assembly.
    case attemptMoved = "attempt.moved"
    /// An Assembly the shard gave up on was cancelled (or the cancel failed).
    case attemptCancelled = "attempt.cancelled"
    /// A tus upload was created at the server.
    case uploadCreated = "upload.created"
    /// Inputs failed alone.
    case filesFailed = "files.failed"
    /// A step was tried again; `report` counts these as retries.
    case shardRetrying = "shard.retrying"
    /// The change stream of an Assembly ended; polling went on alone.
    case streamEnded = "stream.ended"
}
