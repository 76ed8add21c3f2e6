import AssemblyLine
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
        case is OutputsDiffer:
            return .failedShards
        case let failure as CommandError:
            console.error(failure.message + "\n")
            return status(of: failure)
        case let usage as UsageError:
            let tool = HelpRenderer.toolName
            var text = "Error: \(usage.message)\n"
            if let configuration {
                text += "Usage: \(HelpRenderer.usage(for: configuration, commandPath: "\(tool) \(configuration.commandName)"))\n"
                text += "  See '\(tool) \(configuration.commandName) --help' for more information.\n"
            } else {
                text += "  See '\(tool) --help' for the list of subcommands.\n"
            }
            console.error(text)
            return .usage
        case let invalid as InvalidConfigFile:
            console.error(invalid.description + "\n")
            return .invalidInput
        case let yaml as YAMLError:
            console.error(yaml.description + "\n")
            return .invalidInput
        case let plan as PlanError:
            console.error("Error: \(plan)\n")
            return .invalidInput
        case let ledger as LedgerError:
            console.error("Error: \(ledger)\n")
            if case .runNotFound = ledger { return .invalidInput }
            return .internalError
        case let sqlite as SQLiteError:
            console.error("Error: the ledger: \(sqlite)\n")
            return .ledgerIO
        case let held as RunLock.Held:
            console.error(held.description + "\n")
            return .locked
        default:
            console.error("Error: internal error: \(error)\n")
            return .internalError
        }
    }

    /// A run's exit status: interrupted; else an outage over refused credentials over an unwritable output over other failures.
    static func status(of ended: RunEnded) -> ExitStatus {
        switch ended.state {
        case .finished: return .success
        case .interrupted, .running, .canceled: return .interrupted
        case .failed: break
        }
        if ended.failures.contains(where: \.meansUnreachable) { return .unavailable }
        if ended.failures.contains(where: \.meansCredentialsRefused) { return .refused }
        if ended.failures.contains(.outputNotWritable) { return .cannotCreateOutput }
        return .failedShards
    }

    /// The exit status each command failure calls for.
    private static func status(of failure: CommandError) -> ExitStatus {
        switch failure {
        case .secretVariableUnset, .secretFileUnreadable, .secretFileEmpty, .secretUnusable, .namedFileUnreadable, .tlsRefused:
            .configuration
        case .embeddedSignerNeedsEmbeddedEndpoint, .noLedger, .noRuns, .recipeChanged:
            .invalidInput
        case .listenFailed, .unreachable:
            .unavailable
        case .outputUnusable, .dataDirectoryUnusable:
            .cannotCreateOutput
        case .dataDirectoryHeld:
            .locked
        case .stateDirectoryUnusable, .lockUnopenable:
            .ledgerIO
        case .credentialsNotWritable, .embeddedServiceFailed:
            .internalError
        }
    }
}
