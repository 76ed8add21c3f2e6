import AssemblyLine

/// A failure a command met, named by what went wrong; ``ErrorReporter`` alone turns it into a message and an exit status.
enum CommandError: Error, Sendable {
    /// `serve --secret-env NAME` names a variable that is unset or empty.
    case secretVariableUnset(name: String)
    /// A secret file that cannot be read, or holds nothing.
    case secretFileUnreadable(path: String)
    case secretFileEmpty(path: String)
    /// `serve` could not write the credentials it generated.
    case credentialsNotWritable(directory: String, reason: String)
    /// The state directory (ledger and locks) cannot be created or written.
    case stateDirectoryUnusable(path: String, reason: String)
    /// The output directory cannot be created or written (found before anything is sent).
    case outputUnusable(path: String, reason: String)
    /// The endpoint or the signer does not answer (found before anything is sent).
    case unreachable(what: String, url: String, reason: String)
    /// `serve`'s data directory cannot be made or opened.
    case dataDirectoryUnusable(path: String, reason: String)
    /// Another `serve` uses the data directory.
    case dataDirectoryHeld(path: String)
    /// The run lock file cannot be opened.
    case lockUnopenable(path: String, reason: String)
    /// `signer: embedded` with another endpoint.
    case embeddedSignerNeedsEmbeddedEndpoint
    /// A secret or signer named by a manifest or policy file cannot be used.
    case secretUnusable(file: String, reason: String)
    /// A certificate or CA file an option or manifest field names cannot be read.
    case namedFileUnreadable(name: String, path: String, reason: String)
    /// The TLS certificate and key were read but libmicrohttpd would not serve with them.
    case tlsRefused(reason: String)
    /// The embedded service did not start.
    case embeddedServiceFailed(reason: String)
    /// A server could not start listening.
    case listenFailed(reason: String)
    /// No ledger where one was expected; `hint` says what to do about it.
    case noLedger(path: String, hint: String)
    /// A ledger without any run.
    case noRuns(path: String)
    /// `resume` of a run whose manifest's recipe changed since.
    case recipeChanged(manifest: String, runID: RunID)

    /// The one-line message, `Error: …`.
    var message: String {
        switch self {
        case let .secretVariableUnset(name): "Error: --secret-env \(name): the environment variable is unset or empty"
        case let .secretFileUnreadable(path): "Error: cannot read \(path)"
        case let .secretFileEmpty(path): "Error: \(path) is empty"
        case let .credentialsNotWritable(directory, reason): "Error: cannot write the generated credentials to \(directory): \(reason)"
        case let .stateDirectoryUnusable(path, reason): "Error: cannot use the state directory \(path): \(reason)"
        case let .lockUnopenable(path, reason): "Error: cannot open the lock \(path): \(reason)"
        case let .dataDirectoryUnusable(path, reason): "Error: cannot use the data directory \(path): \(reason)"
        case let .dataDirectoryHeld(path): "Error: another serve uses the data directory \(path)"
        case let .outputUnusable(path, reason): "Error: cannot write the output directory \(path): \(reason); nothing was sent"
        case let .unreachable(what, url, reason): "Error: \(what) \(url) does not answer: \(reason); nothing was sent"
        case .embeddedSignerNeedsEmbeddedEndpoint: "Error: signer kind embedded needs endpoint: embedded"
        case let .secretUnusable(file, reason): "Error: \(file): \(reason)"
        case let .namedFileUnreadable(name, path, reason): "Error: \(name) \(path): \(reason)"
        case let .tlsRefused(reason): "Error: \(reason)"
        case let .embeddedServiceFailed(reason): "Error: the embedded service did not start: \(reason)"
        case let .listenFailed(reason): "Error: \(reason)"
        case let .noLedger(path, hint): "Error: no ledger \(path); \(hint)"
        case let .noRuns(path): "Error: no runs recorded in \(path)"
        case let .recipeChanged(manifest, runID): "Error: the recipe of \(manifest) changed since run \(runID); start a new run instead"
        }
    }
}

/// A run that ended otherwise than finished; its summary is printed already, only the exit status is left to say.
struct RunEnded: Error, Sendable {
    let state: RunState
    /// The codes the failed files and shards failed with.
    var failures: Set<FailureCode> = []

    /// Throws unless `state` is `finished`.
    func check() throws(RunEnded) {
        guard state == .finished else { throw self }
    }
}

/// `check` found outputs missing or changed; the list is printed already.
struct OutputsDiffer: Error, Sendable {
    let count: Int
}

/// No subcommand at all: the root help goes to standard error.
struct MissingSubcommand: Error, Sendable {
    let help: String
}
