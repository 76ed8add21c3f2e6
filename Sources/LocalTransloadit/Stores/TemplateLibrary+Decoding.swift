import AssemblyLine
package import ConfigFormat

extension TemplateLibrary {
    /// The keys of a Template's content.
    static let contentKeys = ["steps", "allow_steps_override", "fields", "notify_url", "notification_payload", "quiet", "auth"]
    /// The keys of a Template's settings, beside its content.
    static let settingKeys = ["name", "require_signature_auth"]

    /// Reads a Templates file (YAML or JSON, parsed by the caller): a mapping of Template ID to Template.
    ///
    /// ```yaml
    /// thumbs:                       # the Template ID requests send as template_id
    ///   name: thumbnails            # what the Template API shows (default: the ID)
    ///   require_signature_auth: true
    ///   allow_steps_override: false
    ///   steps:
    ///     thumb: {robot: /image/resize, use: ":original", width: 100, height: 100}
    /// ```
    /// Each Template must have a `steps` mapping; `allow_steps_override` and `require_signature_auth`
    /// are true or false (default true and false); unknown keys are errors. `${VAR}` is expanded from
    /// `environment` in every value.
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
        guard let table = reader.table(node, field: id, keys: contentKeys + settingKeys) else { return nil }
        let allow = table.bool("allow_steps_override")
        let requireSignature = table.bool("require_signature_auth")
        let name = table.string("name")
        guard let steps = table.members["steps"] else {
            table.reportMissing("steps", expected: "a mapping of step names to steps")
            return nil
        }
        guard case .mapping = steps.value.content else {
            reader.report(steps.value, field: steps.field, "expected a mapping of step names to steps, found \(steps.value.kindDescription)")
            return nil
        }
        var content: [String: JSONValue] = [:]
        for (key, member) in table.members where contentKeys.contains(key) && key != "allow_steps_override" {
            guard let value = reader.json(member.value, field: member.field) else { return nil }
            content[key] = value
        }
        if table.has("allow_steps_override") {
            guard let allow else { return nil }
            content["allow_steps_override"] = .bool(allow)
        }
        if table.has("require_signature_auth"), requireSignature == nil { return nil }
        if table.has("name"), name == nil { return nil }
        return Template(name: name, content: content, requireSignatureAuth: requireSignature ?? false)
    }
}
