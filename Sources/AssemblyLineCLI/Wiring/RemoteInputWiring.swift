import AssemblyLine
import CurlTransport
import Digests

/// How the CLI reaches remote inputs: a bucket's read-only credentials read where the manifest says, SigV4 over libcrypto, libcurl.
struct RemoteInputWiring: RemoteInputAccess {
    let clock: any PipelineClock

    func bucketLister(for bucket: BucketInputSettings) throws -> S3BucketLister {
        let secrets = SecretReader()
        let credentials: S3Credentials
        do {
            credentials = S3Credentials(accessKeyID: try secrets.read(bucket.accessKeyID), secret: try secrets.read(bucket.secretAccessKey))
        } catch {
            throw CommandError.secretUnusable(file: "inputs.s3 (\(bucket.address))", reason: error.description)
        }
        return S3BucketLister(address: bucket.address, credentials: credentials, hashing: LibcryptoSigV4Hashing(), transport: CurlTransport(),
                              clock: clock)
    }

    func headProbe(rule: InputURLRule) -> URLHeadProbe {
        URLHeadProbe(rule: rule, transport: CurlTransport())
    }
}
