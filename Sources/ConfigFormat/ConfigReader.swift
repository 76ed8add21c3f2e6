/// Reads typed values out of a configuration tree and collects every issue instead of stopping at the first.
///
/// Decoders of manifests, policies and template files share it, so that all of them name the file,
/// line, column and field, and say what was expected, in the same words.
package final class ConfigReader {
    package let file: String
    package let expander: EnvironmentExpander
    package private(set) var issues: [ConfigIssue] = []

    package init(file: String, environment: [String: String]) {
        self.file = file
        self.expander = EnvironmentExpander(environment: environment)
    }

    /// Records an issue at a node.
    package func report(_ node: ConfigNode, field: String, _ message: String) {
        report(at: node.mark, field: field, message)
    }

    /// Records an issue at a mark.
    package func report(at mark: SourceMark, field: String, _ message: String) {
        issues.append(ConfigIssue(file: file, mark: mark, field: field, message: message))
    }

    /// The node as a mapping with only the allowed keys; unknown keys are reported (with a suggestion).
    package func table(_ node: ConfigNode, field: String, keys: [String]) -> ConfigTable? {
        guard case .mapping(let entries) = node.content else {
            report(node, field: field, "expected a mapping with keys \(keys.joined(separator: ", ")), found \(node.kindDescription)")
            return nil
        }
        var values: [String: ConfigTable.Member] = [:]
        for entry in entries {
            guard let key = entry.key.scalarText else {
                report(entry.key, field: field, "expected a plain key, found \(entry.key.kindDescription)")
                continue
            }
            let path = field.isEmpty ? key : "\(field).\(key)"
            guard keys.contains(key) else {
                report(entry.key, field: path, Self.unknownKeyMessage(key, allowed: keys))
                continue
            }
            values[key] = ConfigTable.Member(keyMark: entry.key.mark, value: entry.value, field: path)
        }
        return ConfigTable(reader: self, node: node, field: field, members: values)
    }

    /// The scalar's text with `${VAR}` expanded; reports non-scalars and unset variables.
    package func text(_ node: ConfigNode, field: String, expected: String) -> String? {
        guard case .scalar(let raw, _) = node.content else {
            report(node, field: field, "expected \(expected), found \(node.kindDescription)")
            return nil
        }
        do {
            return try expander.expand(raw)
        } catch {
            report(node, field: field, error.description)
            return nil
        }
    }

    /// The node as JSON with `${VAR}` expanded in every scalar; plain scalars are typed, quoted ones stay strings.
    package func json(_ node: ConfigNode, field: String) -> JSONValue? {
        switch node.content {
        case .scalar(_, let quoted):
            guard let text = self.text(node, field: field, expected: "a value") else { return nil }
            return quoted ? .string(text) : ConfigNode.typedScalar(text)
        case .sequence(let items):
            let values = items.compactMap { json($0, field: field) }
            return values.count == items.count ? .array(values) : nil
        case .mapping(let entries):
            var members: [String: JSONValue] = [:]
            for entry in entries {
                guard let key = entry.key.scalarText, let value = json(entry.value, field: field.isEmpty ? key : "\(field).\(key)") else {
                    if entry.key.scalarText == nil { report(entry.key, field: field, "expected a plain key, found \(entry.key.kindDescription)") }
                    return nil
                }
                members[key] = value
            }
            return .object(members)
        }
    }

    static func unknownKeyMessage(_ key: String, allowed: [String]) -> String {
        var message = "unknown key '\(key)'; expected one of: \(allowed.joined(separator: ", "))"
        if let suggestion = NameSuggestion.closest(to: key, among: allowed) {
            message += " (did you mean '\(suggestion)'?)"
        }
        return message
    }
}
