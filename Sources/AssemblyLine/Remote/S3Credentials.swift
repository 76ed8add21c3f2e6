/// A read-only key pair for an S3-compatible bucket: the access key ID and its secret, passed in as values.
///
/// Neither ``description`` nor a mirror of the value shows the secret; the access key ID is shown,
/// as S3 itself names it in its answers.
package struct S3Credentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    package let accessKeyID: String
    /// The secret access key: only the signer reads it.
    let secret: String

    package init(accessKeyID: String, secret: String) {
        self.accessKeyID = accessKeyID
        self.secret = secret
    }

    package var description: String { "S3 credentials \(accessKeyID)" }

    package var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID], displayStyle: .struct)
    }
}
