import Digests
import Foundation
import TestSupport
import Testing

/// A bucket night signed by `sign-server` on a batch host without the Auth Secret, against `serve` holding the bucket
/// as Template Credentials: the policy's `imports` rule signs an import step whose every key lies under its prefix, and
/// refuses one with a key outside it (exit 77), however the rest of the Assembly is allowed.
@Suite(.timeLimit(.minutes(3))) struct BucketSigningTests {
    @Test func anImportStepIsSignedOnlyWhenEveryKeyLiesUnderThePolicysPrefix() async throws {
        let moto = try await BucketRunTests.crashBucket.value
        let directory = try TemporaryDirectory()
        let secret = "secret-\(UUID().uuidString)", token = "token-\(UUID().uuidString)"
        let host = String(moto.endpoint.dropFirst("http://".count))
        try directory.write("credentials.json", """
            {"night": {"type": "s3", "endpoint": "\(moto.endpoint)", "region": "\(moto.region)", "bucket": "crash-bucket",
                       "key": "\(moto.accessKeyID)", "secret": "\(moto.secret)"}}
            """)
        chmod(directory.file("credentials.json"), 0o600)
        try directory.write("templates.yaml", """
            thumbs:
              steps:
                thumb: {robot: /image/resize, use: imported, width: 2, height: 2, resize_strategy: fit, format: png}

            """)
        try directory.write("policy.yaml", """
            key: \(SigningRefusalTests.key)
            secret_env: TL_SECRET
            tokens_sha256: [\(Hex.encode(Digest.sha256(Array(token.utf8))))]
            templates: [thumbs]
            imports:
              - {robot: /minio/import, credentials: [night], prefixes: ["photos/2026/d1/"], hosts: ["\(host)"]}

            """)
        let serve = try ChildServer(["serve", "--listen", "127.0.0.1:0", "--data-dir", "service", "--key", SigningRefusalTests.key,
                                     "--secret-env", "TL_SECRET", "--templates", "templates.yaml",
                                     "--template-credentials", "credentials.json", "--allow-local-imports"],
                                    in: directory.url, name: "serve", environment: ["TL_SECRET": secret])
        defer { _ = serve.stop() }
        let signServer = try ChildServer(["sign-server", "--policy", "policy.yaml", "--listen", "127.0.0.1:0"],
                                         in: directory.url, name: "sign-server", environment: ["TL_SECRET": secret])
        defer { _ = signServer.stop() }
        let (endpoint, signer) = (try await serve.baseURL(), try await signServer.baseURL())
        for (name, prefix) in [("allowed", "photos/2026/d1/"), ("outside", "photos/2026/")] {
            try directory.write("s3.secret", moto.secret)
            chmod(directory.file("s3.secret"), 0o600)
            try directory.write("\(name).yaml", """
                version: 1
                name: \(name)
                endpoint: \(endpoint)
                auth: {key: \(SigningRefusalTests.key)}
                signer: {kind: backend, url: \(signer)/sign, token_env: SIGNER_TOKEN}
                inputs:
                  s3: {endpoint: "\(moto.endpoint)", bucket: crash-bucket, prefix: \(prefix), access_key_id_env: NIGHT_KEY_ID,
                       secret_access_key_file: s3.secret, template_credentials: night}
                  include: "**/*.png"
                template: {id: thumbs}
                output: {dir: out-\(name), layout: "{relpath}.{ext}"}
                retry: {attempts: 2, base_delay: 50ms, max_delay: 100ms}
                state_dir: state-\(name)

                """)
        }
        let environment = ["SIGNER_TOKEN": token, "NIGHT_KEY_ID": moto.accessKeyID]
        let allowed = try await BinaryRunner.run(["run", "allowed.yaml"], in: directory.url, environment: environment)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.file("out-allowed/img 1.png")), "\(allowed.stdout)")

        let outside = try await BinaryRunner.run(["run", "outside.yaml"], in: directory.url, environment: environment)
        #expect(outside.status == 77, "\(outside.stdout) \(outside.stderr)")
        let report = try await BinaryRunner.run(["report", "latest", "--manifest", "outside.yaml", "--failed"], in: directory.url)
        #expect(report.stdout.contains("SIGNING_REFUSED") && report.stdout.contains(#"import step "imported": path[1] is not under an allowed prefix"#),
                "\(report.stdout)")
        for outcome in [allowed, outside, report] {
            #expect(!outcome.stdout.contains(token) && !outcome.stderr.contains(token) && !outcome.stderr.contains(moto.secret))
        }
    }
}
