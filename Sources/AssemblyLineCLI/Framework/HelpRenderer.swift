/// Renders help in fixed sections: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
enum HelpRenderer {
    static let toolName = "assemblyline"
    private static let column = 26

    /// The help of one command.
    static func help(for configuration: CommandConfiguration, commandPath: String) -> String {
        var lines = ["OVERVIEW: \(configuration.abstract)"]
        if !configuration.discussion.isEmpty { lines += ["", configuration.discussion] }
        lines += ["", "USAGE: \(usage(for: configuration, commandPath: commandPath))"]
        if !configuration.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += configuration.arguments.map { row("<\($0.name)>", $0.help) }
        }
        lines += ["", "OPTIONS:"]
        lines += (configuration.options + [.help]).map { row(label(of: $0), $0.help) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the tool is for, in one sentence: the root help's overview and the manual's NAME.
    static let overview = "Push batches of media files through Transloadit, resumably, with a SQLite run ledger."

    /// The help of the tool itself, listing its commands.
    static func rootHelp(commands: [CommandConfiguration]) -> String {
        var lines = [
            "OVERVIEW: \(overview)",
            "",
            "USAGE: \(toolName) <subcommand>",
            "",
            "OPTIONS:",
            row("--version", "Show the version."),
            row("-h, --help", "Show help information."),
            "",
            "SUBCOMMANDS:",
        ]
        lines += commands.map { row($0.commandName, $0.abstract) }
        lines += ["", "  See '\(toolName) help <subcommand>' for detailed help."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `assemblyline plan [--json] <manifest>`.
    static func usage(for configuration: CommandConfiguration, commandPath: String) -> String {
        var parts = [commandPath]
        for option in configuration.options {
            let text = option.isFlag ? "--\(option.name)" : "--\(option.name) <\(option.valueName ?? "value")>"
            parts.append(option.isRequired ? text : option.isRepeating ? "[\(text) ...]" : "[\(text)]")
        }
        for argument in configuration.arguments {
            parts.append(argument.isOptional ? "[<\(argument.name)>]" : "<\(argument.name)>")
        }
        return parts.joined(separator: " ")
    }

    static func label(of option: OptionSpec) -> String {
        let name = option.name == "help" ? "-h, --help" : option.short.map { "-\($0), --\(option.name)" } ?? "--\(option.name)"
        return option.isFlag ? name : "\(name) <\(option.valueName ?? "value")>"
    }

    private static func row(_ label: String, _ help: String) -> String {
        let padded = "  " + label
        if padded.count < column { return padded + String(repeating: " ", count: column - padded.count) + help }
        return padded + "\n" + String(repeating: " ", count: column) + help
    }
}
