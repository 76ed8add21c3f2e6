import AssemblyLine
#if canImport(Glibc)
import Glibc
#endif

/// The `assemblyline` command: picks the subcommand, parses its arguments, runs it, and exits with its code.
package enum AssemblyLineTool {
    static let commands: [any CLICommand.Type] = [
        ValidateCommand.self, PlanCommand.self, RunCommand.self, ResumeCommand.self, RunsCommand.self, ReportCommand.self,
        ServeCommand.self, SignServerCommand.self,
    ]

    /// Runs the tool with the process's arguments and never returns.
    package static func main() async -> Never {
        let status = await run(Array(CommandLine.arguments.dropFirst()), console: Console())
        exit(status.rawValue)
    }

    /// Runs one command line and returns the exit status; every error is reported here and nowhere else.
    static func run(_ arguments: [String], console: Console) async -> ExitStatus {
        let configurations = commands.map { $0.configuration }
        guard let first = arguments.first else {
            console.error(HelpRenderer.rootHelp(commands: configurations))
            return .usage
        }
        switch first {
        case "-h", "--help":
            console.out(HelpRenderer.rootHelp(commands: configurations))
            return .success
        case "--version":
            console.line(ClientIdentity.version)
            return .success
        case "help":
            return help(Array(arguments.dropFirst()), console: console)
        default:
            break
        }
        guard let command = commands.first(where: { $0.configuration.commandName == first }) else {
            return ErrorReporter.report(UsageError("unknown subcommand '\(first)'"), configuration: nil, console: console)
        }
        let configuration = command.configuration
        do {
            let values = try ArgumentParser.parse(Array(arguments.dropFirst()), for: configuration, commandPath: "\(HelpRenderer.toolName) \(first)")
            let instance = try command.init(values)
            try instance.validate()
            return try await instance.run(console)
        } catch {
            return ErrorReporter.report(error, configuration: configuration, console: console)
        }
    }

    private static func help(_ arguments: [String], console: Console) -> ExitStatus {
        guard let name = arguments.first else {
            console.out(HelpRenderer.rootHelp(commands: commands.map { $0.configuration }))
            return .success
        }
        guard let command = commands.first(where: { $0.configuration.commandName == name }) else {
            return ErrorReporter.report(UsageError("unknown subcommand '\(name)'"), configuration: nil, console: console)
        }
        console.out(HelpRenderer.help(for: command.configuration, commandPath: "\(HelpRenderer.toolName) \(name)"))
        return .success
    }
}
