/// `assemblyline completion bash|zsh`: a shell completion script, made from the commands' own configurations.
struct CompletionCommand: CLICommand {
    /// The shells a script is made for.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh
    }

    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print a shell completion script for bash or zsh.",
        discussion: """
            Completes subcommands, each subcommand's options, and file names elsewhere. bash: \
            assemblyline completion bash > /etc/bash_completion.d/assemblyline. zsh: put \
            eval "$(assemblyline completion zsh)" in ~/.zshrc (it uses zsh's bashcompinit).
            """,
        arguments: [ArgumentSpec(name: "shell", help: "bash or zsh.")])

    var shell: Shell

    init(_ values: ParsedValues) throws {
        let text = values.positional(0) ?? ""
        guard let shell = Shell(rawValue: text) else { throw UsageError("expected bash or zsh, found '\(text)'") }
        self.shell = shell
    }

    func run(_ context: CommandContext) async throws {
        context.console.out((shell == .zsh ? "autoload -U +X bashcompinit && bashcompinit\n" : "") + Self.bashScript)
    }

    /// The bash function, with every subcommand and its options.
    static var bashScript: String {
        let configurations = AssemblyLineTool.commands.map { $0.configuration } + [AssemblyLineTool.helpConfiguration]
        let cases = configurations.map { configuration in
            let options = (configuration.options + [.help]).flatMap { option in ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? []) }
            return "        \(configuration.commandName)) options=\"\(options.joined(separator: " "))\" ;;"
        }
        return """
            # assemblyline completion for bash (assemblyline completion bash)
            _assemblyline() {
                local current=${COMP_WORDS[COMP_CWORD]} options=""
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(configurations.map(\.commandName).joined(separator: " ")) --help --version" -- "$current"))
                    return
                fi
                case ${COMP_WORDS[1]} in
            \(cases.joined(separator: "\n"))
                esac
                if [[ $current == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$current"))
                else
                    COMPREPLY=($(compgen -f -- "$current"))
                fi
            }
            complete -o filenames -F _assemblyline assemblyline

            """
    }
}
