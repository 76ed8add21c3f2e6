import AssemblyLine
import YAMLReader

/// The one place that turns an error into a message on standard error and an exit status.
enum ErrorReporter {
    static func report(_ error: any Error, configuration: CommandConfiguration?, console: Console) -> ExitStatus {
        switch error {
        case let exit as CleanExit:
            console.out(exit.text)
            return .success
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
        case let held as RunLock.Held:
            console.error(held.description + "\n")
            return .locked
        case let failure as CommandFailure:
            console.error(failure.message.hasSuffix("\n") ? failure.message : failure.message + "\n")
            return failure.status
        default:
            console.error("Error: internal error: \(error)\n")
            return .internalError
        }
    }
}

/// A failure a command has already put into words, with the exit status it calls for.
struct CommandFailure: Error, Sendable {
    var message: String
    var status: ExitStatus
}
