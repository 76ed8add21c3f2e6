/// `inputs.s3`: the S3-compatible bucket a night's inputs are listed from, and how the service imports them.
///
/// The batch host lists the keys with read-only credentials of its own; the service imports them with
/// the account's Template Credentials (`template_credentials`), so no secret travels in an Assembly.
package struct BucketInputSettings: Sendable, Hashable {
    /// The endpoint, region and bucket, addressed path-style.
    package var address: S3BucketAddress
    /// The keys listed: empty for the whole bucket, else ending in `/`; globs and relative paths start below it.
    package var prefix: String
    /// Where the listing's access key ID is read from.
    package var accessKeyID: SecretSource
    /// Where the listing's secret access key is read from.
    package var secretAccessKey: SecretSource
    /// The name of the account's Template Credentials the import step names (`credentials`).
    package var templateCredentials: String

    package init(address: S3BucketAddress, prefix: String, accessKeyID: SecretSource, secretAccessKey: SecretSource,
                 templateCredentials: String) {
        self.address = address
        self.prefix = prefix
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.templateCredentials = templateCredentials
    }

    /// The virtual directory the keys are read under: `/` and the prefix, so that globs and relative paths work on keys as on files.
    package var root: String {
        prefix.isEmpty ? "/" : "/" + prefix.dropLast()
    }

    /// The step that imports a shard's keys: `/s3/import` on Amazon S3, `/minio/import` with the endpoint's host elsewhere.
    package var importStep: ImportStep {
        let host = address.host.split(separator: ":").first.map(String.init) ?? address.host
        if address.scheme == "https", host == "amazonaws.com" || host.hasSuffix(".amazonaws.com") {
            return ImportStep(robot: .s3, credentials: templateCredentials, host: nil, bucket: address.bucket)
        }
        return ImportStep(robot: .minio, credentials: templateCredentials, host: address.host, bucket: address.bucket)
    }
}
