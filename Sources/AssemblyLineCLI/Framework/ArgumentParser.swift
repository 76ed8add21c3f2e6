import ConfigFormat

/// Splits a command's arguments by its configuration: `--name value`, `--name=value`, flags, `--`, positionals.
enum ArgumentParser {
    /// The parsed values, or a ``UsageError`` naming the offending argument; `-h`/`--help` ends in a ``CleanExit``.
    static func parse(_ given: [String], for configuration: CommandConfiguration, commandPath: String) throws -> ParsedValues {
        var arguments = given
        var values = ParsedValues()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                values.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                throw CleanExit(text: HelpRenderer.help(for: configuration, commandPath: commandPath))
            }
            if !argument.hasPrefix("--") {
                guard argument.count == 2, let spec = configuration.options.first(where: { $0.short == argument.last }) else {
                    throw unknown(argument, meaning: String(argument.dropFirst()), in: configuration)
                }
                arguments.insert("--\(spec.name)", at: index)
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let spec = configuration.options.first(where: { $0.name == name }) else {
                throw unknown("--\(name)", meaning: name, in: configuration)
            }
            if spec.isFlag {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                values.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw UsageError("missing value for '--\(name) <\(spec.valueName ?? "value")>'")
                }
                value = arguments[index]
                index += 1
            }
            if !spec.isRepeating, values.options[name] != nil {
                throw UsageError("--\(name) was given more than once")
            }
            values.options[name, default: []].append(value)
        }
        if let missing = configuration.options.first(where: { $0.isRequired && values.options[$0.name] == nil }) {
            throw UsageError("missing '--\(missing.name) <\(missing.valueName ?? "value")>'")
        }
        let required = configuration.arguments.filter { !$0.isOptional }
        if values.positionals.count < required.count {
            throw UsageError("missing expected argument '<\(required[values.positionals.count].name)>'")
        }
        if values.positionals.count > configuration.arguments.count {
            throw UsageError("unexpected argument '\(values.positionals[configuration.arguments.count])'")
        }
        return values
    }

    /// An unknown option's usage error, suggesting the option most likely meant by `name` (`-checksum` is `--checksum`).
    private static func unknown(_ argument: String, meaning name: String, in configuration: CommandConfiguration) -> UsageError {
        let names = (configuration.options + [.help]).map(\.name)
        let suggestion = name.count > 1 ? NameSuggestion.closest(to: name, among: names) : nil
        return UsageError("unknown option '\(argument)'" + (suggestion.map { "; did you mean '--\($0)'?" } ?? ""))
    }
}
