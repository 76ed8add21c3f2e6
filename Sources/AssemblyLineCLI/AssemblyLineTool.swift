import AssemblyLine
import ConfigFormat
import ImageRobot
#if canImport(Glibc)
import Glibc
#endif

/// The `assemblyline` command: picks the subcommand, parses its arguments, runs it, and exits with its code.
package enum AssemblyLineTool {
    static let commands: [any CLICommand.Type] = [
        ValidateCommand.self, PlanCommand.self, RunCommand.self, ResumeCommand.self, RunsCommand.self, ReportCommand.self, CheckCommand.self, CancelCommand.self, PruneCommand.self, TemplatesCommand.self, CompletionCommand.self, ManualCommand.self,
        ServeCommand.self, SignServerCommand.self,
    ]

    /// Runs the tool with the process's arguments and never returns.
    package static func main() async -> Never {
        let status = await run(Array(CommandLine.arguments.dropFirst()), console: Console())
        end(with: status)
    }

    /// Ends the process with `status`, without the libraries' `atexit` handlers.
    ///
    /// `exit` runs them (OpenSSL's and GLib's free their locks) while threads of the cooperative
    /// pool or of a ledger's queue may still be using those libraries: one run in thirty that failed
    /// early crashed there with SIGSEGV. Everything the process promised is durable before this
    /// point (the ledger commits each step; `Console` writes unbuffered), so nothing is lost.
    static func end(with status: ExitStatus) -> Never {
        fflush(nil)
        _exit(status.rawValue)
    }

    /// Runs one command line and returns the exit status; every error is reported, and every status chosen, by ``ErrorReporter``.
    static func run(_ arguments: [String], console: Console) async -> ExitStatus {
        var context = CommandContext(console: console)
        var configuration: CommandConfiguration?
        do {
            guard let first = arguments.first else {
                throw MissingSubcommand(help: HelpRenderer.rootHelp(commands: commands.map { $0.configuration }))
            }
            switch first {
            case "-h", "--help":
                throw CleanExit(text: HelpRenderer.rootHelp(commands: commands.map { $0.configuration }))
            case "--version":
                throw CleanExit(text: BuildDescription.text)
            case "help":
                throw CleanExit(text: try help(Array(arguments.dropFirst())))
            default:
                break
            }
            let command = try self.command(named: first)
            if command.resizesImages { ImageResizer.prepareBeforeThreads() }
            configuration = command.configuration
            let values = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.configuration, commandPath: "\(HelpRenderer.toolName) \(first)")
            if values.option("log-format") == RunProgress.Format.json.rawValue { context.console.json = JSONLog(clock: context.clock) }
            let instance = try command.init(values)
            try instance.validate()
            try await instance.run(context)
            return .success
        } catch {
            return ErrorReporter.report(error, configuration: configuration, console: context.console)
        }
    }

    /// `help` itself, so that `help help` answers as every subcommand does.
    static let helpConfiguration = CommandConfiguration(
        commandName: "help", abstract: "Show the tool's help, or a subcommand's.",
        arguments: [ArgumentSpec(name: "subcommand", help: "The subcommand to explain.", isOptional: true)])

    /// The text `help [SUBCOMMAND]` prints.
    private static func help(_ arguments: [String]) throws(UsageError) -> String {
        guard let name = arguments.first else {
            return HelpRenderer.rootHelp(commands: commands.map { $0.configuration })
        }
        if name == "help" {
            return HelpRenderer.help(for: helpConfiguration, commandPath: "\(HelpRenderer.toolName) help")
        }
        return HelpRenderer.help(for: try command(named: name).configuration, commandPath: "\(HelpRenderer.toolName) \(name)")
    }

    /// The subcommand called `name`, or a usage error suggesting the one most likely meant.
    private static func command(named name: String) throws(UsageError) -> any CLICommand.Type {
        if let command = commands.first(where: { $0.configuration.commandName == name }) { return command }
        let names = commands.map { $0.configuration.commandName } + [helpConfiguration.commandName]
        let suggestion = NameSuggestion.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw UsageError("unknown subcommand '\(name)'" + suggestion)
    }
}
