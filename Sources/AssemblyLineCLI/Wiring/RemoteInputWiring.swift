import AssemblyLine
import CurlTransport
import Digests

/// How the CLI reaches remote inputs: a bucket's read-only credentials read where the manifest says, SigV4 over libcrypto, libcurl.
struct RemoteInputWiring: RemoteInputAccess {
    let clock: any PipelineClock

    func bucketLister(for bucket: BucketInputSettings) throws -> S3BucketLister {
        S3BucketLister(address: bucket.address, credentials: try Self.credentials(of: bucket), hashing: LibcryptoSigV4Hashing(),
                       transport: CurlTransport(), clock: clock)
    }

    /// The bucket's credentials, read from where the manifest says.
    static func credentials(of bucket: BucketInputSettings) throws -> S3Credentials {
        let secrets = SecretReader()
        do {
            return S3Credentials(accessKeyID: try secrets.read(bucket.accessKeyID), secret: try secrets.read(bucket.secretAccessKey))
        } catch {
            throw CommandError.secretUnusable(file: "inputs.s3 (\(bucket.address))", reason: error.description)
        }
    }

    func headProbe(rule: InputURLRule) -> URLHeadProbe {
        URLHeadProbe(rule: rule, transport: CurlTransport())
    }
}
