/// The process's exit codes, stable and documented (DESIGN.md §6, README "Exit codes").
package enum ExitStatus: Int32, Sendable, CaseIterable {
    /// All shards done; or the command did what it was asked.
    case success = 0
    /// The run finished with failed shards (`resume` can be tried); or `check` found outputs missing or changed.
    case failedShards = 1
    /// The run was interrupted by a signal or `--max-duration` and can be resumed.
    case interrupted = 2
    /// The run was canceled with `cancel` (final): the run's own process, and `resume` of it, exit with this.
    case canceled = 3
    /// The command line was wrong.
    case usage = 64
    /// The manifest or an input was invalid.
    case invalidInput = 65
    /// The inputs' directory (`inputs.base`) is not there (EX_NOINPUT); a base that holds no match is 65.
    case noInput = 66
    /// The endpoint or the signer could not be reached (a failure of the run's because of it beats any other).
    case unavailable = 69
    /// An internal error.
    case internalError = 70
    /// An output could not be created or written.
    case cannotCreateOutput = 73
    /// The ledger could not be read or written.
    case ledgerIO = 74
    /// Another run holds the lock.
    case locked = 75
    /// Our credentials or signature were refused.
    case refused = 77
    /// The configuration names a secret or file that is missing.
    case configuration = 78
}
