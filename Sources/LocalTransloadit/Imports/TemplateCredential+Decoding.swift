import AssemblyLine
package import ConfigFormat

extension TemplateCredential {
    /// The kinds of Template Credentials the service holds.
    enum Kind: String, CaseIterable {
        case s3
    }

    /// The keys of one Template Credential.
    static let keys = ["type", "endpoint", "region", "bucket", "key", "secret"]

    /// Reads a Template Credentials file (JSON, or YAML, parsed by the caller): a mapping of names to credentials.
    ///
    /// ```json
    /// {"night_bucket": {"type": "s3", "endpoint": "https://s3.eu-west-1.amazonaws.com", "region": "eu-west-1",
    ///                   "bucket": "media", "key": "AKIA…", "secret": "…"}}
    /// ```
    /// Every key is required and unknown keys are errors; `endpoint` is `http(s)://host[:port]`, `bucket` follows
    /// S3's naming rules. `${VAR}` is expanded from `environment` in every value. No issue quotes a value.
    /// - Throws: ``ConfigError`` with every issue, each naming `file:line:column` and the field.
    package static func decodeAll(_ node: ConfigNode, file: String, environment: [String: String] = [:]) throws(ConfigError)
        -> [String: TemplateCredential] {
        try ConfigSource(displayPath: file, absolutePath: file, environment: environment).decode { reader in
            guard case .mapping(let entries) = node.content else {
                reader.report(node, field: "", "expected a mapping of credential names to credentials, found \(node.kindDescription)")
                return nil
            }
            var credentials: [String: TemplateCredential] = [:]
            for entry in entries {
                guard let name = entry.key.scalarText, !name.isEmpty else {
                    reader.report(entry.key, field: "", "expected a credential name, found \(entry.key.kindDescription)")
                    continue
                }
                if let table = reader.table(entry.value, field: name, keys: keys), let credential = decode(table) {
                    credentials[name] = credential
                }
            }
            return credentials
        }
    }

    /// One credential: each address field checked on its own, so that an issue names the field that is wrong.
    private static func decode(_ table: ConfigTable) -> TemplateCredential? {
        _ = table.choice("type", as: Kind.self, required: true)
        let fields = ["endpoint", "region", "bucket", "key", "secret"].map { table.string($0, required: true) }
        guard let endpoint = fields[0], let region = fields[1], let bucket = fields[2], let key = fields[3], let secret = fields[4] else {
            return nil
        }
        let checks: [(field: String, endpoint: String, region: String, bucket: String)] = [
            ("endpoint", endpoint, "us-east-1", "bucket"), ("region", "https://s3.amazonaws.com", region, "bucket"),
            ("bucket", "https://s3.amazonaws.com", "us-east-1", bucket),
        ]
        var valid = true
        for check in checks {
            do {
                _ = try S3BucketAddress(endpoint: check.endpoint, region: check.region, bucket: check.bucket)
            } catch {
                if case .invalidAddress(let reason) = error { table.report(check.field, reason) }
                valid = false
            }
        }
        guard valid else { return nil }
        return try? TemplateCredential(endpoint: endpoint, region: region, bucket: bucket, keys: S3Credentials(accessKeyID: key, secret: secret))
    }
}
