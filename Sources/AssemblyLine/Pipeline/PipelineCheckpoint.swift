/// A named moment in a shard's work where a crash test may stop the process: between every two durable steps.
///
/// The pipeline passes each one to `PipelineContext.checkpoint` as it goes by. In production nothing
/// listens; `ASSEMBLYLINE_KILL_AT` (docs/pipeline.md) makes the CLI kill itself at one, so that tests can
/// prove that `resume` recovers from a crash at each.
package enum PipelineCheckpoint: String, Sendable, CaseIterable {
    /// The attempt's intent (its Assembly ID) is committed; nothing is signed or sent.
    case afterIntent = "after-intent"
    /// The params are signed and the shard is `signed`; nothing is sent.
    case afterSigned = "after-signed"
    /// Half of the creating request's body has been sent.
    case midUpload = "mid-upload"
    /// The service accepted the Assembly; the ledger does not know yet.
    case afterCreateAnswer = "after-create-answer"
    /// The Assembly's URL is committed (`uploaded`); polling has not started.
    case afterCreated = "after-created"
    /// A status answer arrived; it is not recorded yet.
    case midPoll = "mid-poll"
    /// The results are committed (`completed`); nothing is downloaded.
    case afterCompleted = "after-completed"
    /// Half of a result's body has been received.
    case midDownload = "mid-download"
    /// A result is verified and renamed into place; the ledger does not know yet.
    case afterRename = "after-rename"
    /// A result's download is committed.
    case afterDownloadCommit = "after-download-commit"
    /// Every result is in place; the shard is not `downloaded` yet.
    case beforeShardDone = "before-shard-done"
}
