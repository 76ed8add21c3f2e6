/// Why a run could not start, resume or be canceled; nothing was sent when it is thrown.
///
/// The CLI's error reporter words each case and gives its exit status (README's table).
package enum RunSessionError: Error, Sendable, Hashable {
    /// The state directory (ledger and locks) cannot be created or written.
    case stateDirectoryUnusable(path: String, reason: String)
    /// The run lock file cannot be opened.
    case lockUnopenable(path: String, reason: String)
    /// Another run holds the lock at `path`; `holder` says who, when it could be read.
    case locked(path: String, holder: String)
    /// The output directory cannot be created or written.
    case outputUnusable(path: String, reason: String)
    /// The endpoint or the signer does not answer.
    case unreachable(what: String, url: String, reason: String)
    /// `resume` of a run whose manifest's recipe changed since.
    case recipeChanged(manifest: String, runID: RunID)
    /// `resume --shard` names shards the run does not have.
    case noSuchShards(RunID, [Int], has: ClosedRange<Int>?)
    /// A ledger without any run (for `latest`).
    case noRuns(path: String)
    /// `resume` of a run an operator canceled (final).
    case canceled(RunID)
    /// The run's forecast usage is past `limits.max_usage`.
    case usageOverLimit(UsageForecast, limit: Int64)
    /// A stop (a signal, `--max-duration`) came while the run followed the Assemblies of the killed run it takes over:
    /// nothing of its own was recorded, and the next run takes that one over again.
    case stoppedWhileTakingOver(RunID)
    /// The state directory holds runs of a job of this name that another manifest (at `by`) ran with other inputs or
    /// outputs: the two would mark each other's files missed; `--adopt` takes that job over.
    case nameTaken(String, by: String, manifest: String)
    /// The account's Template differs from the manifest's Template file (an edit at the account, or a file not pushed):
    /// the night would not make what the repository says.
    case templateDrift(manifest: String, templateID: String, differences: Int)
    /// The account's Template could not be read for the drift check; `code` says why (unreachable, refused, not found).
    case templateUnreadable(templateID: String, code: FailureCode, message: String)
}
