import Foundation

extension CompletionCommand {
    /// The fish completions: the subcommands with their abstracts, each subcommand's options with their help
    /// (an option that takes a value asks for one, a file name by default), file names elsewhere.
    static var fishScript: String {
        let configurations = AssemblyLineTool.commands.map { $0.configuration } + [AssemblyLineTool.helpConfiguration]
        var lines = [
            "# assemblyline completion for fish (assemblyline completion fish > ~/.config/fish/completions/assemblyline.fish)",
            "complete -c assemblyline -n __fish_use_subcommand -f -l version -d \(quoted("Show the version."))",
            "complete -c assemblyline -n __fish_use_subcommand -f -s h -l help -d \(quoted(OptionSpec.help.help))",
        ]
        lines += configurations.map { "complete -c assemblyline -n __fish_use_subcommand -f -a \($0.commandName) -d \(quoted($0.abstract))" }
        for configuration in configurations {
            let condition = "complete -c assemblyline -n '__fish_seen_subcommand_from \(configuration.commandName)'"
            lines += (configuration.options + [.help]).map { option in
                let short = option.name == "help" ? "h" : option.short.map(String.init)
                return condition + (short.map { " -s \($0)" } ?? "") + " -l \(option.name)" + (option.isFlag ? "" : " -r") + " -d \(quoted(option.help))"
            }
        }
        lines.append("complete -c assemblyline -n '__fish_seen_subcommand_from help' -f -a "
                     + quoted(AssemblyLineTool.commands.map { $0.configuration.commandName }.joined(separator: " ")))
        lines.append("complete -c assemblyline -n '__fish_seen_subcommand_from completion' -f -a " + quoted(Shell.allCases.map(\.rawValue).joined(separator: " ")))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as a fish single-quoted string: backslashes and quotes escaped.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
