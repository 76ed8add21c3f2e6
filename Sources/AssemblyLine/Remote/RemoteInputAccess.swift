/// What planning remote inputs needs from outside: a bucket's lister with its credentials read, a URL's HEAD.
///
/// The CLI reads the credentials where the manifest says and sends over libcurl; tests give a scripted transport.
package protocol RemoteInputAccess: Sendable {
    /// The lister of the bucket `inputs.s3` names, its credentials read from where the manifest says.
    func bucketLister(for bucket: BucketInputSettings) throws -> S3BucketLister

    /// The probe that asks a URL of a list for its identity under `rule`.
    func headProbe(rule: InputURLRule) -> URLHeadProbe
}
