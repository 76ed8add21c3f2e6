import ConfigFormat

extension SigningPolicyDecoder {
    private static let importKeys = ["robot", "credentials", "prefixes", "hosts", "url_prefixes", "allow_headers"]

    /// The `imports` rules: each a Robot and where its steps may read.
    ///
    /// ```yaml
    /// imports:
    ///   - {robot: /s3/import, credentials: [night_bucket], prefixes: ["photos/2026/"]}
    ///   - {robot: /minio/import, credentials: [lab], prefixes: ["in/"], hosts: ["minio.internal:9000"]}
    ///   - {robot: /http/import, url_prefixes: ["https://cdn.example.com/media/"]}
    /// ```
    func imports(_ table: ConfigTable, reader: ConfigReader) -> [ImportRule]? {
        list(table, "imports", reader: reader, expected: "a list of import rules, each a robot and where its steps may read") { item, field in
            importRule(item, field: field, reader: reader)
        }
    }

    private func importRule(_ item: ConfigNode, field: String, reader: ConfigReader) -> ImportRule? {
        guard let table = reader.table(item, field: field, keys: Self.importKeys),
              let robot = table.choice("robot", as: ImportRule.Robot.self, required: true) else { return nil }
        let used: Set<String> = switch robot {
        case .s3: ["robot", "credentials", "prefixes"]
        case .minio: ["robot", "credentials", "prefixes", "hosts"]
        case .http: ["robot", "url_prefixes", "allow_headers"]
        }
        var valid = true
        for key in Self.importKeys where table.has(key) && !used.contains(key) {
            table.report(key, "\(robot.rawValue) takes no \(key); expected only \(used.subtracting(["robot"]).sorted().joined(separator: ", "))")
            valid = false
        }
        var rule = ImportRule(robot: robot)
        switch robot {
        case .s3, .minio:
            rule.credentials = table.strings("credentials", required: true) ?? []
            rule.prefixes = checked(table, "prefixes", expected: "a key prefix without a leading /, empty, . or .. segment") { text throws(ImportRefusal.Fault) in
                try ImportTarget.checkPlainKey(text)
            }
            rule.hosts = robot == .minio ? table.strings("hosts", required: true) ?? [] : []
            valid = valid && !rule.credentials.isEmpty && !rule.prefixes.isEmpty && (robot == .s3 || !rule.hosts.isEmpty)
        case .http:
            rule.urlPrefixes = checked(table, "url_prefixes", expected: "an absolute http(s) URL") { text throws(ImportRefusal.Fault) in
                _ = try ImportURL(text)
            }
            rule.allowsHeaders = table.bool("allow_headers") ?? false
            valid = valid && !rule.urlPrefixes.isEmpty
        }
        return valid ? rule : nil
    }

    /// The required list `key`, each entry passing `check`; empty when one does not (the issue is reported).
    private func checked(_ table: ConfigTable, _ key: String, expected: String, _ check: (String) throws(ImportRefusal.Fault) -> Void) -> [String] {
        guard let texts = table.strings(key, required: true) else { return [] }
        for text in texts {
            do {
                try check(text)
            } catch {
                table.report(key, "expected \(expected); '\(text.prefix(80))' \(error)")
                return []
            }
        }
        return texts
    }
}
