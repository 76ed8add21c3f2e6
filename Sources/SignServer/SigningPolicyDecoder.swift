import AssemblyLine
package import ConfigFormat

/// Turns a parsed policy file into a ``SigningPolicy``, reporting every problem of the file in one ``ConfigError``.
///
/// ```yaml
/// key: 2b0c45611f6440dfb64611e872ec3211
/// secret_env: TRANSLOADIT_SECRET
/// tokens_sha256: [9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08]
/// max_expires_in: 1h
/// templates: [0123456789abcdef0123456789abcdef]
/// template_api: read
/// ```
package struct SigningPolicyDecoder {
    static let keys = [
        "key", "secret_env", "secret_file", "secret", "tokens_sha256", "max_expires_in", "clock_skew",
        "templates", "steps", "template_steps", "fields", "notify_urls", "requests_per_minute", "template_api", "imports",
    ]

    /// The policy file; a relative `secret_file` resolves against its directory.
    package var source: ConfigSource

    package init(displayPath: String, absolutePath: String, environment: [String: String]) {
        source = ConfigSource(displayPath: displayPath, absolutePath: absolutePath, environment: environment)
    }

    /// The validated policy, or every issue found in it.
    package func decode(_ root: ConfigNode) throws(ConfigError) -> SigningPolicy {
        try source.decode { reader in decode(root, reader: reader) }
    }

    private func decode(_ root: ConfigNode, reader: ConfigReader) -> SigningPolicy? {
        guard let table = reader.table(root, field: "", keys: Self.keys) else { return nil }
        if table.has("secret") {
            table.report("secret", "a literal secret in a policy file is refused: such files end up in version control, backups and logs; use secret_env or secret_file instead")
        }
        let key = table.string("key", required: true, expected: "the Auth Key this service signs for")
        let secret = table.secretSource(prefix: "secret", relativeTo: PathText.directory(of: source.absolutePath))
        let tokens = tokenHashes(table, reader: reader)
        let maxExpiresIn = table.duration("max_expires_in", in: SigningPolicy.maxExpiresInRange) ?? SigningPolicy.defaultMaxExpiresIn
        let clockSkew = table.duration("clock_skew", in: SigningPolicy.clockSkewRange) ?? SigningPolicy.defaultClockSkew
        let templates = table.strings("templates") ?? []
        let steps = self.steps(table, reader: reader)
        let templateSteps = self.templateSteps(table, reader: reader)
        let fields = self.fields(table, reader: reader)
        let notifyURLs = table.strings("notify_urls") ?? []
        let rate = table.int("requests_per_minute", in: SigningPolicy.requestsPerMinuteRange) ?? SigningPolicy.defaultRequestsPerMinute
        let templateAccess = table.choice("template_api", as: SigningPolicy.TemplateAccess.self) ?? SigningPolicy.defaultTemplateAccess
        let imports = self.imports(table, reader: reader)
        if !table.has("templates") && !table.has("steps") && !table.has("template_steps") {
            reader.report(root, field: "", "missing templates and steps; expected templates, steps or both: a policy that allows neither signs nothing")
        }
        guard let key, let secret, let tokens, let steps, let templateSteps, let fields, let imports else { return nil }
        return SigningPolicy(
            key: key, secret: secret, tokenHashes: tokens, maxExpiresIn: maxExpiresIn, clockSkew: clockSkew,
            templates: templates, steps: steps, templateSteps: templateSteps, fields: fields, notifyURLs: notifyURLs,
            requestsPerMinute: rate, templateAccess: templateAccess, imports: imports)
    }

    /// A list of SHA-256 digests, each 64 hex digits; an entry is never quoted back, in case it is a token pasted by mistake.
    private func tokenHashes(_ table: ConfigTable, reader: ConfigReader) -> [String]? {
        let expected = "a list of SHA-256 digests of the accepted tokens, each 64 hex digits (printf %s TOKEN | sha256sum)"
        guard let member = table.members["tokens_sha256"] else {
            table.reportMissing("tokens_sha256", expected: expected)
            return nil
        }
        guard case let .sequence(items) = member.value.content, !items.isEmpty else {
            reader.report(member.value, field: member.field, "expected \(expected)")
            return nil
        }
        var hashes: [String] = []
        for (index, item) in items.enumerated() {
            let field = "\(member.field)[\(index)]"
            guard let text = reader.text(item, field: field, expected: "64 hex digits") else { continue }
            guard text.utf8.count == 64, text.allSatisfy(\.isHexDigit) else {
                reader.report(item, field: field, "expected a SHA-256 digest of 64 hex digits, found \(text.count) characters that are not one")
                continue
            }
            hashes.append(text.lowercased())
        }
        return hashes.count == items.count ? hashes : nil
    }

    /// A list of Step sets, each a mapping of Step names to Steps with a robot.
    private func steps(_ table: ConfigTable, reader: ConfigReader) -> [JSONValue]? {
        list(table, "steps", reader: reader, expected: "a list of allowed Step sets, each a mapping of Step names to Steps") { item, field in
            stepSet(item, field: field, reader: reader)
        }
    }

    /// Pairs of a Template and a Step set that may be sent together (request Steps override a Template's).
    private func templateSteps(_ table: ConfigTable, reader: ConfigReader) -> [SigningPolicy.TemplateSteps]? {
        list(table, "template_steps", reader: reader, expected: "a list of pairs, each {template: ID, steps: {Step name: Step}}") { item, field in
            guard let pair = reader.table(item, field: field, keys: ["template", "steps"]) else { return nil }
            let template = pair.string("template", required: true, expected: "the Template ID the Steps may go with")
            guard let steps = pair.members["steps"] else {
                pair.reportMissing("steps", expected: "a mapping of Step names to Steps")
                return nil
            }
            guard let template, let set = stepSet(steps.value, field: steps.field, reader: reader) else { return nil }
            return SigningPolicy.TemplateSteps(template: template, steps: set)
        }
    }

    /// The optional non-empty list `key` (empty when absent), each item read by `item` with its field (`key[0]`);
    /// nil when the list or an item is wrong (each reported).
    func list<Item>(_ table: ConfigTable, _ key: String, reader: ConfigReader, expected: String,
                    _ item: (ConfigNode, String) -> Item?) -> [Item]? {
        guard let member = table.members[key] else { return [] }
        guard case let .sequence(items) = member.value.content, !items.isEmpty else {
            reader.report(member.value, field: member.field, "expected \(expected)")
            return nil
        }
        let read = items.enumerated().compactMap { index, node in item(node, "\(member.field)[\(index)]") }
        return read.count == items.count ? read : nil
    }

    /// One Step set: a mapping of Step names to Steps, each with a robot.
    private func stepSet(_ item: ConfigNode, field: String, reader: ConfigReader) -> JSONValue? {
        guard case let .mapping(entries) = item.content, !entries.isEmpty else {
            reader.report(item, field: field, "expected a mapping of Step names to Steps, found \(item.kindDescription)")
            return nil
        }
        let robotless = entries.first { entry in
            guard case let .mapping(options) = entry.value.content else { return true }
            return !options.contains { $0.key.scalarText == "robot" }
        }
        if let robotless {
            reader.report(robotless.value, field: "\(field).\(robotless.key.scalarText ?? "")", "expected a Step: a mapping with robot (such as /image/resize) and its options")
            return nil
        }
        return reader.json(item, field: field)
    }

    /// A mapping of field names to regular expressions that each value must match whole.
    private func fields(_ table: ConfigTable, reader: ConfigReader) -> [String: FieldPattern]? {
        guard let member = table.members["fields"] else { return [:] }
        guard case let .mapping(entries) = member.value.content else {
            reader.report(member.value, field: member.field, "expected a mapping of field names to regular expressions, found \(member.value.kindDescription)")
            return nil
        }
        var patterns: [String: FieldPattern] = [:]
        var valid = true
        for entry in entries {
            guard let name = entry.key.scalarText else { continue }
            let field = "\(member.field).\(name)"
            guard let text = reader.text(entry.value, field: field, expected: "a regular expression") else {
                valid = false
                continue
            }
            do {
                patterns[name] = try FieldPattern(text)
            } catch {
                reader.report(entry.value, field: field, "expected a regular expression that matches in linear time; '\(text.prefix(80))' \(error)")
                valid = false
            }
        }
        return valid ? patterns : nil
    }
}
