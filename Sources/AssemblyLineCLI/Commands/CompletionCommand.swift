/// `assemblyline completion bash|zsh|fish`: a shell completion script, made from the commands' own configurations.
struct CompletionCommand: CLICommand {
    /// The shells a script is made for.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
            Completes subcommands, each subcommand's options, and file names elsewhere. bash: \
            assemblyline completion bash > /etc/bash_completion.d/assemblyline. zsh: put \
            eval "$(assemblyline completion zsh)" in ~/.zshrc (it uses zsh's bashcompinit). fish: assemblyline \
            completion fish > ~/.config/fish/completions/assemblyline.fish.
            """,
        arguments: [ArgumentSpec(name: "shell", help: "bash, zsh or fish.")])

    var shell: Shell

    init(_ values: ParsedValues) throws {
        let text = values.positional(0) ?? ""
        guard let shell = Shell(rawValue: text) else { throw UsageError("expected bash, zsh or fish, found '\(text)'") }
        self.shell = shell
    }

    func run(_ context: CommandContext) async throws {
        switch shell {
        case .bash: context.console.out(Self.bashScript)
        case .zsh: context.console.out("autoload -U +X bashcompinit && bashcompinit\n" + Self.bashScript)
        case .fish: context.console.out(Self.fishScript)
        }
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
