@testable import AssemblyLine
import ConfigFormat
import Foundation
import Testing

/// `inputs.s3`: a bucket's keys as the inputs, and every mistake in the section named where it is.
@Suite struct BucketInputsTests {
    static func manifest(_ s3: String, extra: String = "") -> String {
        """
        version: 1
        name: thumbs
        inputs:
          s3: {\(s3)}
          include: "**/*.jpg"\(extra)
        resize: {width: 100}

        """
    }

    static let valid = #"endpoint: "https://s3.eu-west-1.amazonaws.com", region: eu-west-1, bucket: media, prefix: photos/2026/, "#
        + "access_key_id_env: S3_KEY_ID, secret_access_key_file: secrets/s3, template_credentials: media_bucket"

    @Test func aBucketIsReadWithItsGlobsUnderThePrefix() throws {
        let manifest = try decodeManifest(Self.manifest(Self.valid))
        let bucket = try #require(manifest.inputs.bucket)
        #expect(bucket.address.description == "https://s3.eu-west-1.amazonaws.com/media")
        #expect(bucket.accessKeyID == .environment("S3_KEY_ID"))
        #expect(bucket.secretAccessKey == .file("/jobs/secrets/s3"))
        #expect(manifest.inputs.base == "/photos/2026")
        #expect(manifest.inputs.include.map(\.description) == ["/photos/2026/**/*.jpg"])
        #expect(bucket.importStep == ImportStep(robot: .s3, credentials: "media_bucket", host: nil, bucket: "media"))
        #expect(manifest.inputsKey.contains(#""bucket":"https://s3.eu-west-1.amazonaws.com/media/photos/2026/""#))
    }

    @Test func anotherEndpointImportsWithMinioAndItsHost() throws {
        let manifest = try decodeManifest(Self.manifest(Self.valid.replacingOccurrences(of: "s3.eu-west-1.amazonaws.com", with: "minio.example.com:9000")))
        #expect(manifest.inputs.bucket?.importStep == ImportStep(robot: .minio, credentials: "media_bucket", host: "minio.example.com:9000", bucket: "media"))
    }

    static let mistakes: [(String, String)] = [
        (valid + ", secret_access_key: abc",
         "m.yaml:4:233: inputs.s3.secret_access_key: a literal secret in a manifest is refused: manifests end up in version control, backups and logs; use secret_access_key_env or secret_access_key_file instead"),
        (valid.replacingOccurrences(of: "prefix: photos/2026/", with: "prefix: photos"),
         "m.yaml:4:98: inputs.s3.prefix: expected a folder of keys such as photos/2026/ (ending in /, not starting with it), found 'photos'"),
        (valid.replacingOccurrences(of: "https://s3.eu-west-1", with: "http://s3.eu-west-1"),
         "m.yaml:4:18: inputs.s3.endpoint: plain http is allowed only to a loopback host (127.0.0.1, localhost, [::1]); expected an https:// URL, found 'http://s3.eu-west-1.amazonaws.com'"),
        (valid.replacingOccurrences(of: "bucket: media", with: "bucket: Media_Files"),
         "m.yaml:4:83: inputs.s3.bucket: the bucket name is not 3 to 63 of a-z, 0-9, `.` and `-`"),
        (valid.replacingOccurrences(of: ", template_credentials: media_bucket", with: ""),
         "m.yaml:4:7: inputs.s3.template_credentials: missing; expected the name of the account's Template Credentials for the bucket"),
    ]

    @Test(arguments: mistakes) func aMistakeIsNamedWhereItIs(_ s3: String, _ issue: String) throws {
        #expect(try manifestIssues(Self.manifest(s3)) == [issue])
    }

    @Test func aBaseBesideABucketIsRefused() throws {
        #expect(try manifestIssues(Self.manifest(Self.valid, extra: "\n  base: in")) == [
            "m.yaml:6:9: inputs.base: not used with inputs.s3: relative paths start below inputs.s3.prefix",
        ])
    }
}
