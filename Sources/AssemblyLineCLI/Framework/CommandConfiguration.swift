/// What a command is called, what it says about itself, and the arguments and options it takes.
struct CommandConfiguration: Sendable {
    var commandName: String
    var abstract: String
    var discussion: String = ""
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
}

/// A positional argument of a command.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var isOptional = false
}

/// A named option (`--name value`, `--name=value`) or, without a value name, a flag (`--name`).
struct OptionSpec: Sendable {
    var name: String
    var valueName: String?
    var help: String
    var isRepeating = false
    /// True for an option the command cannot run without: its usage shows it without brackets, and the parser asks for it.
    var isRequired = false
    /// A one-letter form, `-q` for `--quiet`.
    var short: Character?

    /// `--help`, on every command.
    static let help = OptionSpec(name: "help", help: "Show help information.")
    /// `--state-dir DIR`, wherever a ledger is read.
    static let stateDir = OptionSpec(name: "state-dir", valueName: "dir", help: "Use this state directory (ledger and lock; for a run, its outputs too unless the manifest names output.dir) instead of the manifest's state_dir.")

    var isFlag: Bool { valueName == nil }
}
