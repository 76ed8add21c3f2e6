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
    /// `serve`'s data directory cannot be made or opened.
    case dataDirectoryUnusable(path: String, reason: String)
    /// Another `serve` uses the data directory.
    case dataDirectoryHeld(path: String)
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
    /// A report's `--output` file could not be written.
    case unwritableOutput(path: String, reason: String)

    /// The one-line message, `Error: …`.
    var message: String {
        switch self {
        case let .secretVariableUnset(name): "Error: --secret-env \(name): the environment variable is unset or empty"
        case let .secretFileUnreadable(path): "Error: cannot read \(path)"
        case let .secretFileEmpty(path): "Error: \(path) is empty"
        case let .credentialsNotWritable(directory, reason): "Error: cannot write the generated credentials to \(directory): \(reason)"
        case let .dataDirectoryUnusable(path, reason): "Error: cannot use the data directory \(path): \(reason)"
        case let .dataDirectoryHeld(path): "Error: another serve uses the data directory \(path)"
        case .embeddedSignerNeedsEmbeddedEndpoint: "Error: signer kind embedded needs endpoint: embedded"
        case let .secretUnusable(file, reason): "Error: \(file): \(reason)"
        case let .namedFileUnreadable(name, path, reason): "Error: \(name) \(path): \(reason)"
        case let .tlsRefused(reason): "Error: \(reason)"
        case let .embeddedServiceFailed(reason): "Error: the embedded service did not start: \(reason)"
        case let .listenFailed(reason): "Error: \(reason)"
        case let .unwritableOutput(path, reason): "Error: cannot write \(path): \(reason)"
        }
    }
}

/// A run that ended otherwise than finished; its summary is printed already, only the exit status is left to say.
struct RunEnded: Error, Sendable {
    let state: RunState
    /// The codes the failed files and shards failed with.
    var failures: Set<FailureCode> = []

    init(state: RunState, failures: Set<FailureCode> = []) {
        self.state = state
        self.failures = failures
    }

    /// How a run's outcome ends the command.
    init(_ outcome: RunOutcome) {
        self.init(state: outcome.state, failures: outcome.failures)
    }

    /// Throws unless `state` is `finished`.
    func check() throws(RunEnded) {
        guard state == .finished else { throw self }
    }
}

/// An error already reported (its message written, its status chosen) before the command ends with `status`.
struct Reported: Error, Sendable {
    let status: ExitStatus
}

/// `check` found outputs missing or changed, or files of a batch in no partition or in two; the list is printed already.
struct CheckFound: Error, Sendable {
    let count: Int
}

/// No subcommand at all: the root help goes to standard error.
struct MissingSubcommand: Error, Sendable {
    let help: String
}
