import AssemblyLine
package import ConfigFormat

extension TemplateLibrary {
    /// The keys a Template may hold.
    static let templateKeys = ["steps", "allow_steps_override", "fields", "notify_url", "notification_payload", "quiet", "auth"]

    /// Reads a Templates file (YAML or JSON, parsed by the caller): a mapping of Template ID to Template.
    ///
    /// ```yaml
    /// thumbs:                       # the Template ID requests send as template_id
    ///   allow_steps_override: false
    ///   steps:
    ///     thumb: {robot: /image/resize, use: ":original", width: 100, height: 100}
    /// ```
    /// Each Template must have a `steps` mapping; `allow_steps_override` is true or false (default
    /// true); unknown keys are errors. `${VAR}` is expanded from `environment` in every value.
    /// - Throws: ``ConfigError`` with every issue, each naming `file:line:column` and the field.
    package static func decode(_ node: ConfigNode, file: String, environment: [String: String] = [:]) throws(ConfigError) -> TemplateLibrary {
        try ConfigSource(displayPath: file, absolutePath: file, environment: environment).decode { reader in
            var templates: [String: Template] = [:]
            if case .mapping(let entries) = node.content {
                for entry in entries {
                    guard let id = entry.key.scalarText, !id.isEmpty else {
                        reader.report(entry.key, field: "", "expected a Template ID, found \(entry.key.kindDescription)")
                        continue
                    }
                    if let template = decodeTemplate(entry.value, id: id, reader: reader) {
                        templates[id] = template
                    }
                }
            } else {
                reader.report(node, field: "", "expected a mapping of Template IDs to Templates, found \(node.kindDescription)")
            }
            return TemplateLibrary(templates)
        }
    }

    private static func decodeTemplate(_ node: ConfigNode, id: String, reader: ConfigReader) -> Template? {
        guard let table = reader.table(node, field: id, keys: templateKeys) else { return nil }
        let allow = table.bool("allow_steps_override")
        guard let steps = table.members["steps"] else {
            table.reportMissing("steps", expected: "a mapping of step names to steps")
            return nil
        }
        guard case .mapping = steps.value.content else {
            reader.report(steps.value, field: steps.field, "expected a mapping of step names to steps, found \(steps.value.kindDescription)")
            return nil
        }
        var content: [String: JSONValue] = [:]
        for (key, member) in table.members where key != "allow_steps_override" {
            guard let value = reader.json(member.value, field: member.field) else { return nil }
            content[key] = value
        }
        if table.has("allow_steps_override"), allow == nil { return nil }
        return Template(content: content, allowStepsOverride: allow ?? true)
    }
}
