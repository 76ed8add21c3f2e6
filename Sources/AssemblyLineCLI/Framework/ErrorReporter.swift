import AssemblyLine
import ConfigFormat
import SQLiteLedger
import YAMLReader

/// The one place that turns an error into a message and an exit status, the way swift-argument-parser's `MessageInfo` does.
///
/// Commands throw typed errors (or end without one, exit 0) and never pick an exit status
/// themselves; README's table of exit codes is this switch.
enum ErrorReporter {
    static func report(_ error: any Error, configuration: CommandConfiguration?, console: Console) -> ExitStatus {
        switch error {
        case let exit as CleanExit:
            console.out(exit.text)
            return .success
        case let missing as MissingSubcommand:
            console.error(missing.help)
            return .usage
        case let ended as RunEnded:
            return status(of: ended)
        case is CheckFound:
            return .failedShards
        case let reported as Reported:
            return reported.status
        case let failure as CommandError:
            console.error(failure.message + "\n")
            return status(of: failure)
        case let failure as RunSessionError:
            let status = status(of: failure)
            guard status != .usage else { return usage(text(of: failure), configuration: configuration, console: console) }
            console.error("Error: \(text(of: failure))\n")
            return status
        case let usage as UsageError:
            return self.usage(usage.message, configuration: configuration, console: console)
        case let failure as TemplateSyncError:
            console.error("Error: \(failure)\n")
            return .invalidInput
        case let failure as TransloaditError:
            console.error("Error: \(failure.code.rawValue): \(failure.message)\n")
            return status(of: failure.code)
        case let failure as SigningError:
            console.error("Error: the signer: \(failure)\n")
            return status(of: failure.failureCode)
        case let invalid as InvalidConfigFile:
            placed(invalid.description, invalid.error.issues.map { ($0.description, place(file: $0.file, mark: $0.mark, field: $0.field)) },
                   console: console)
            return .invalidInput
        case let yaml as YAMLError:
            placed(yaml.description, [(yaml.summary, place(file: yaml.file, mark: yaml.mark, field: ""))], console: console)
            return .invalidInput
        case let plan as PlanError:
            console.error("Error: \(plan)\n")
            if case .missingBase = plan { return .noInput }
            return .invalidInput
        case let list as URLListError:
            console.error("Error: \(list)\n")
            return .invalidInput
        case let listing as S3ListingError:
            console.error("Error: \(listing)\n")
            return status(of: listing)
        case let read as LedgerReadError:
            switch read {
            case let .noLedger(path, hint): console.error("Error: no ledger \(path); \(hint)\n")
            case let .invalidBatch(problem): console.error("Error: \(problem)\n")
            }
            return .invalidInput
        case let ledger as LedgerError:
            console.error("Error: \(ledger)\n")
            if case .runNotFound = ledger { return .invalidInput }
            return .internalError
        case let sqlite as SQLiteError:
            let hint = sqlite.is(.full) ? "; free space on the state directory's file system, then resume the run (`runs` lists it)" : ""
            console.error("Error: the ledger: \(sqlite)\(hint)\n")
            return .ledgerIO
        default:
            console.error("Error: internal error: \(error)\n")
            return .internalError
        }
    }

    /// A failed listing's exit status: refused credentials 77, an address the manifest got wrong 78, anything else of the
    /// bucket's (no answer, a 5xx, an answer that cannot be trusted) 69.
    static func status(of listing: S3ListingError) -> ExitStatus {
        if listing.isAuthorizationFailure { return .refused }
        if case .invalidAddress = listing { return .configuration }
        return .unavailable
    }

    /// A run's exit status: interrupted; else an outage over refused credentials over an unwritable output (or one short of
    /// `limits.min_free_space`) over other failures.
    static func status(of ended: RunEnded) -> ExitStatus {
        switch ended.state {
        case .finished: return .success
        case .interrupted, .running, .superseded: return .interrupted
        case .canceled: return .canceled
        case .failed: break
        }
        if ended.failures.contains(where: \.meansUnreachable) { return .unavailable }
        if ended.failures.contains(where: \.meansCredentialsRefused) { return .refused }
        if ended.failures.contains(.outputNotWritable) || ended.failures.contains(.outputSpaceLow) { return .cannotCreateOutput }
        return .failedShards
    }

    /// An error that names places in a file: its text (each place with its line and a caret), or, as JSON, an `error`
    /// object a place, its one-line message and the place as members.
    private static func placed(_ text: String, _ places: [(message: String, members: [String: JSONValue])], console: Console) {
        guard let json = console.json else { return console.error(text + "\n") }
        for place in places { console.errorLine(json.object("error", message: place.message, members: place.members)) }
    }

    /// A JSON log's members for a place in a file: `file`, and `line`, `column` and `field` when it has them.
    private static func place(file: String, mark: SourceMark?, field: String) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["file": .string(file)]
        if let mark {
            members["line"] = .integer(Int64(mark.line))
            members["column"] = .integer(Int64(mark.column))
        }
        if !field.isEmpty { members["field"] = .string(field) }
        return members
    }

    /// A usage error's message, with the command's usage line.
    private static func usage(_ message: String, configuration: CommandConfiguration?, console: Console) -> ExitStatus {
        let tool = HelpRenderer.toolName
        var text = "Error: \(message)\n"
        if let configuration {
            text += "Usage: \(HelpRenderer.usage(for: configuration, commandPath: "\(tool) \(configuration.commandName)"))\n"
            text += "  See '\(tool) \(configuration.commandName) --help' for more information.\n"
        } else {
            text += "  See '\(tool) --help' for the list of subcommands.\n"
        }
        console.error(text)
        return .usage
    }

    /// What went wrong with a run that could not start, resume or be canceled, in one line.
    private static func text(of failure: RunSessionError) -> String {
        switch failure {
        case let .stateDirectoryUnusable(path, reason): "cannot use the state directory \(path): \(reason); \(stateDirectoryFix)"
        case let .lockUnopenable(path, reason): "cannot open the lock \(path): \(reason); \(stateDirectoryFix)"
        case let .locked(path, holder): "another run holds the lock \(path)" + (holder.isEmpty ? "" : " (\(holder))")
        case let .outputUnusable(path, reason): "cannot write the output directory \(path): \(reason); nothing was sent"
        case let .unreachable(what, url, reason): "\(what) \(url) does not answer: \(reason); nothing was sent"
        case let .recipeChanged(manifest, runID): "the recipe of \(manifest) changed since run \(runID); start a new run instead"
        case let .noSuchShards(run, shards, range):
            "run \(run) has no shard \(shards.map(String.init).joined(separator: ", ")) (its shards: "
                + (range.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "none") + ")"
        case let .noRuns(path): "no runs recorded in \(path)"
        case let .canceled(run): "run \(run) was canceled, which is final; start a new run instead"
        case let .stoppedWhileTakingOver(run):
            "stopped while following the Assemblies of run \(run), which this run was taking over; the next run takes it over again"
        case let .nameTaken(name, other, manifest):
            "\(manifest): the state directory holds runs of a job named \(name) that \(other) ran with other inputs or outputs; "
                + "give this manifest another name or state_dir, or run it with --adopt if it takes that job over (it moved)"
        case let .usageOverLimit(forecast, limit):
            "the run would cost \(ForecastText.usage(forecast)), past limits.max_usage \(ByteCountText.format(limit)); nothing was sent"
        case let .templateDrift(manifest, id, count):
            "the account's Template \(id) differs from the Template file of \(manifest) (\(CountText.of(count, "difference"))); "
                + "`assemblyline templates diff \(manifest)` shows them; push the file or pull the account's version, then run again. Nothing was sent"
        case let .templateUnreadable(id, code, message):
            "cannot read the account's Template \(id) to compare it with its file: \(code.rawValue): \(message); nothing was sent"
        }
    }

    /// The exit status of a failure the service or the signer named by `code`: unreachable 69, credentials refused 77,
    /// anything else (a Template that is not there, an answer that is not the API's) 65.
    private static func status(of code: FailureCode) -> ExitStatus {
        if code.meansUnreachable { return .unavailable }
        if code.meansCredentialsRefused { return .refused }
        return .invalidInput
    }

    /// What to do about a state directory the run cannot write: the manifest's `state_dir` is beside the manifest by default,
    /// which a service user may not write (a manifest in `/etc`).
    private static let stateDirectoryFix = "give the run a state directory this user can write: state_dir in the manifest, or --state-dir DIR "
        + "(the systemd unit passes --state-dir /var/lib/assemblyline/INSTANCE)"

    /// The exit status each run failure calls for.
    private static func status(of failure: RunSessionError) -> ExitStatus {
        switch failure {
        case .stateDirectoryUnusable, .lockUnopenable: .ledgerIO
        case .locked: .locked
        case .outputUnusable: .cannotCreateOutput
        case .unreachable: .unavailable
        case .recipeChanged, .noRuns, .usageOverLimit, .nameTaken, .templateDrift: .invalidInput
        case let .templateUnreadable(_, code, _): status(of: code)
        case .noSuchShards: .usage
        case .canceled: .canceled
        case .stoppedWhileTakingOver: .interrupted
        }
    }

    /// The exit status each command failure calls for.
    private static func status(of failure: CommandError) -> ExitStatus {
        switch failure {
        case .secretVariableUnset, .secretFileUnreadable, .secretFileEmpty, .secretUnusable, .namedFileUnreadable, .tlsRefused:
            .configuration
        case .embeddedSignerNeedsEmbeddedEndpoint:
            .invalidInput
        case .listenFailed:
            .unavailable
        case .dataDirectoryUnusable, .unwritableOutput:
            .cannotCreateOutput
        case .dataDirectoryHeld:
            .locked
        case .credentialsNotWritable, .embeddedServiceFailed:
            .internalError
        }
    }
}
