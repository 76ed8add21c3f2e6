package import AssemblyLine

/// One named Template Credential of the service's account: an S3-compatible bucket and the key pair that reads it.
///
/// `/s3/import` and `/minio/import` steps name it in `credentials`, as production's steps name the Template
/// Credentials of an account. The secret lives in ``keys`` (``S3Credentials``): neither ``description`` nor a
/// mirror of this value shows it, and only the SigV4 signer reads it.
package struct TemplateCredential: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The endpoint (`http(s)://host[:port]`), region and name of the bucket, addressed path-style.
    package let bucket: S3BucketAddress
    /// The access key ID and its secret.
    package let keys: S3Credentials

    /// Checks `endpoint`, `region` and `bucket` as ``S3BucketAddress`` does.
    package init(endpoint: String, region: String, bucket: String, keys: S3Credentials) throws(S3ListingError) {
        self.bucket = try S3BucketAddress(endpoint: endpoint, region: region, bucket: bucket)
        self.keys = keys
    }

    package var description: String { "Template Credential for \(bucket) (\(bucket.region)) with \(keys)" }

    package var customMirror: Mirror {
        Mirror(self, children: ["bucket": bucket.description, "region": bucket.region, "accessKeyID": keys.accessKeyID], displayStyle: .struct)
    }
}
