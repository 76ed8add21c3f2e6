import ConfigFormat

/// Reads `inputs.s3`: the bucket, its prefix, where the listing's credentials come from, and the Template Credentials name.
struct ManifestBucketSection {
    static let keys = [
        "endpoint", "region", "bucket", "prefix", "access_key_id_env", "access_key_id_file", "secret_access_key_env",
        "secret_access_key_file", "template_credentials", "access_key_id", "secret_access_key",
    ]

    /// The manifest's directory, which credential files are read against.
    let directory: String

    func decode(_ inputs: ConfigTable) -> BucketInputSettings? {
        guard let section = inputs.table("s3", keys: Self.keys) else { return nil }
        for literal in ["access_key_id", "secret_access_key"] where section.has(literal) {
            section.report(literal, ManifestSections.literalSecretMessage(use: "\(literal)_env or \(literal)_file"))
        }
        let endpoint = section.string("endpoint", required: true, expected: "the S3-compatible endpoint, https://host[:port]")
        let region = section.string("region") ?? "us-east-1"
        let bucket = section.string("bucket", required: true, expected: "the bucket's name")
        let prefix = section.string("prefix") ?? ""
        let prefixIsFolder = prefix.isEmpty || (prefix.hasSuffix("/") && !prefix.hasPrefix("/") && !prefix.contains("//"))
        if !prefixIsFolder {
            section.report("prefix", "expected a folder of keys such as photos/2026/ (ending in /, not starting with it), found '\(prefix)'")
        }
        let keyID = section.secretSource(prefix: "access_key_id", relativeTo: directory)
        let secret = section.secretSource(prefix: "secret_access_key", relativeTo: directory)
        let credentials = section.string("template_credentials", required: true,
                                         expected: "the name of the account's Template Credentials for the bucket")
        guard let endpoint, let bucket, let keyID, let secret, let credentials, prefixIsFolder else { return nil }
        if let host = URLText.host(of: endpoint, scheme: "http"), !URLText.isLoopback(host) {
            section.report("endpoint", "plain http is allowed only to a loopback host (127.0.0.1, localhost, [::1]); expected an https:// URL, found '\(endpoint)'")
            return nil
        }
        let address: S3BucketAddress
        do {
            address = try S3BucketAddress(endpoint: endpoint, region: region, bucket: bucket)
        } catch {
            let reason = if case let .invalidAddress(reason) = error { reason } else { error.description }
            section.report(["bucket", "region"].first { reason.hasPrefix("the \($0)") } ?? "endpoint", reason)
            return nil
        }
        return BucketInputSettings(address: address, prefix: prefix, accessKeyID: keyID, secretAccessKey: secret,
                                   templateCredentials: credentials)
    }
}
