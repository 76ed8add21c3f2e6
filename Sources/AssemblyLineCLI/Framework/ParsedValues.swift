import ConfigFormat

/// The arguments of one command after tokenizing: option values by name, flags, and positionals.
struct ParsedValues: Sendable {
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    /// The value of a single-valued option.
    func option(_ name: String) -> String? { options[name]?.last }

    /// All values of a repeating option, in order.
    func options(_ name: String) -> [String] { options[name] ?? [] }

    /// True when the flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The positional at an index.
    func positional(_ index: Int) -> String? { positionals.indices.contains(index) ? positionals[index] : nil }

    /// An option's value as a whole number within a range, or a usage error naming the option.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), found '\(text)'")
        }
        return value
    }

    /// An option's value as a duration (`90s`, `1h30m`) longer than zero, or at least `minimum`; a usage error otherwise.
    func duration(_ name: String, atLeast minimum: Duration? = nil) throws -> Duration? {
        guard let text = option(name) else { return nil }
        guard let duration = ConfigUnits.parseDuration(text), minimum.map({ duration >= $0 }) ?? (duration > .zero) else {
            let bound = minimum.map { " of at least \(ConfigUnits.formatDuration($0))" } ?? ""
            throw UsageError("--\(name) expects \(ConfigUnits.durationForm)\(bound), found '\(text)'")
        }
        return duration
    }

    /// An option's value as one of an enumeration's raw values, or a usage error listing them.
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, as type: Choice.Type) throws -> Choice?
    where Choice.RawValue == String {
        guard let text = option(name) else { return nil }
        guard let value = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--\(name) expects one of \(names), found '\(text)'")
        }
        return value
    }
}
