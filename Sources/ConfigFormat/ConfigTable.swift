/// A mapping of a configuration file whose keys were checked, with typed getters that report what they reject.
///
/// Every getter returns nil both when the key is absent and when its value is wrong; in the second
/// case the issue is already recorded, with the value's position and the expected form.
package struct ConfigTable {
    /// One present key: where the key stands, its value, and its dotted field path.
    package struct Member {
        package var keyMark: SourceMark
        package var value: ConfigNode
        package var field: String
    }

    package let reader: ConfigReader
    package let node: ConfigNode
    package let field: String
    package let members: [String: Member]

    /// True when the key is present.
    package func has(_ key: String) -> Bool { members[key] != nil }

    /// The dotted path of a key of this table.
    package func path(_ key: String) -> String { field.isEmpty ? key : "\(field).\(key)" }

    /// Records that a required key is missing, at the table's own position.
    package func reportMissing(_ key: String, expected: String) {
        reader.report(node, field: path(key), "missing; expected \(expected)")
    }

    /// Records an issue at a key's value.
    package func report(_ key: String, _ message: String) {
        guard let member = members[key] else { return reportMissing(key, expected: message) }
        reader.report(member.value, field: member.field, message)
    }

    /// The value of a key as text, `${VAR}` expanded.
    package func string(_ key: String, required: Bool = false, expected: String = "a string") -> String? {
        guard let member = members[key] else {
            if required { reportMissing(key, expected: expected) }
            return nil
        }
        guard let text = reader.text(member.value, field: member.field, expected: expected) else { return nil }
        if text.isEmpty {
            reader.report(member.value, field: member.field, "expected \(expected), found an empty value")
            return nil
        }
        return text
    }

    /// A whole number within a range.
    package func int(_ key: String, in range: ClosedRange<Int>, required: Bool = false) -> Int? {
        let expected = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        return parsed(key, required: required, expected: expected) { Int($0) }.flatMap { value in
            guard range.contains(value) else { return outOfRange(key, expected) }
            return value
        }
    }

    /// `true` or `false`.
    package func bool(_ key: String) -> Bool? {
        parsed(key, required: false, expected: "true or false") { text in
            switch text {
            case "true": return true
            case "false": return false
            default: return nil
            }
        }
    }

    /// A size with a unit, within a range of bytes.
    package func size(_ key: String, in range: ClosedRange<Int64>) -> Int64? {
        let expected = "\(ConfigUnits.sizeForm), from \(ConfigUnits.formatSize(range.lowerBound)) to \(ConfigUnits.formatSize(range.upperBound))"
        return parsed(key, required: false, expected: expected, ConfigUnits.parseSize).flatMap { value in
            guard range.contains(value) else { return outOfRange(key, expected) }
            return value
        }
    }

    /// A duration with a unit, within a range.
    package func duration(_ key: String, in range: ClosedRange<Duration>) -> Duration? {
        let expected = "\(ConfigUnits.durationForm), from \(ConfigUnits.formatDuration(range.lowerBound)) to \(ConfigUnits.formatDuration(range.upperBound))"
        return parsed(key, required: false, expected: expected, ConfigUnits.parseDuration).flatMap { value in
            guard range.contains(value) else { return outOfRange(key, expected) }
            return value
        }
    }

    /// One of an enumeration's raw values, or another name of one of them (`aliases`: `jpeg` for `jpg`).
    package func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, as type: Choice.Type, required: Bool = false,
                                                                 aliases: [String: Choice] = [:]) -> Choice?
    where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        let expected = names.count == 2 ? "\(names[0]) or \(names[1])" : "one of \(names.joined(separator: ", "))"
        return parsed(key, required: required, expected: expected) { Choice(rawValue: $0) ?? aliases[$0] }
    }

    /// A string or a list of strings; `[]` is the empty list, an empty string is refused.
    package func strings(_ key: String, required: Bool = false) -> [String]? {
        let expected = "a string or a list of strings"
        guard let member = members[key] else {
            if required { reportMissing(key, expected: expected) }
            return nil
        }
        let items: [ConfigNode]
        if case .sequence(let nodes) = member.value.content { items = nodes } else { items = [member.value] }
        let texts = items.compactMap { reader.text($0, field: member.field, expected: "a string") }
        guard texts.count == items.count else { return nil }
        if texts.contains(where: \.isEmpty) {
            reader.report(member.value, field: member.field, "expected \(expected), found an empty value")
            return nil
        }
        return texts
    }

    /// A nested mapping with its allowed keys.
    package func table(_ key: String, keys: [String], required: Bool = false) -> ConfigTable? {
        guard let member = members[key] else {
            if required { reportMissing(key, expected: "a mapping with keys \(keys.joined(separator: ", "))") }
            return nil
        }
        return reader.table(member.value, field: member.field, keys: keys)
    }

    private func parsed<Value>(_ key: String, required: Bool, expected: String, _ parse: (String) -> Value?) -> Value? {
        guard let member = members[key] else {
            if required { reportMissing(key, expected: expected) }
            return nil
        }
        guard let text = reader.text(member.value, field: member.field, expected: expected) else { return nil }
        guard let value = parse(text) else {
            reader.report(member.value, field: member.field, "expected \(expected), found '\(text)'")
            return nil
        }
        return value
    }

    private func outOfRange<Value>(_ key: String, _ expected: String) -> Value? {
        report(key, "out of range; expected \(expected)")
        return nil
    }
}
