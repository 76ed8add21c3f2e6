import Foundation
import TestSupport
import Testing

/// `sign-server --tls-cert --tls-key` serves HTTPS; a run trusts it through `signer.ca_file`, and only then.
@Suite(.timeLimit(.minutes(3))) struct SignServerTLSTests {
    @Test func aRunSignsOverHTTPSWithTheSignersCAAndRefusesToWithoutIt() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        let token = "token-\(UUID().uuidString)"
        let pair = try await SelfSignedCertificate.make(in: directory.path, name: "signer", subjectAltName: "IP:127.0.0.1")
        chmod(pair.key, 0o600)
        let serve = try SigningRefusalTests.service(in: directory, secret: secret, policyAllowing: ["thumbs"], token: token)
        defer { serve.stop() }
        let signServer = try ChildServer(["sign-server", "--policy", "policy.yaml", "--listen", "127.0.0.1:0",
                                          "--tls-cert", pair.certificate, "--tls-key", pair.key],
                                         in: directory.url, name: "sign-server", environment: ["TL_SECRET": secret])
        defer { signServer.stop() }
        let signerURL = try await signServer.baseURL()
        #expect(signerURL == "https://127.0.0.1:\(try await signServer.port())")
        let manifest = SigningRefusalTests.manifest(template: "thumbs", endpoint: try await serve.baseURL(), signer: signerURL)

        // Without the signer's CA, the system's CAs refuse its certificate before anything is sent
        try directory.write("job/untrusted.yaml", manifest)
        let untrusted = try await BinaryRunner.run(["run", "job/untrusted.yaml"], in: directory.url, environment: ["SIGNER_TOKEN": token])
        #expect(untrusted.status == 69, "\(untrusted.stdout)\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("Error: the signer \(signerURL)/sign does not answer"), "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("nothing was sent"))

        // With it, every file is signed over TLS and done
        let trustingManifest = manifest.replacingOccurrences(of: "token_env: SIGNER_TOKEN}", with: "token_env: SIGNER_TOKEN, ca_file: ../signer.crt}")
        try directory.write("job/trusted.yaml", trustingManifest)
        let validated = try await BinaryRunner.run(["validate", "job/trusted.yaml"], in: directory.url, environment: ["SIGNER_TOKEN": token])
        #expect(validated.status == 0, "\(validated.stderr)")
        let trusted = try await BinaryRunner.run(["run", "job/trusted.yaml"], in: directory.url, environment: ["SIGNER_TOKEN": token])
        #expect(trusted.status == 0, "\(trusted.stdout)\(trusted.stderr)")
        #expect(trusted.stdout.contains("files 12 done, 0 failed"), "\(trusted.stdout)")
        #expect(!trusted.stdout.contains(token) && !trusted.stderr.contains(token))
    }

    @Test func aMissingCAFileIs78BeforeAnythingIsSent() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("in/a.png", "not read")
        try directory.write("job.yaml", SigningRefusalTests.manifest(template: "thumbs", endpoint: "https://api2.transloadit.com",
                                                                     signer: "https://sign.example.com")
            .replacingOccurrences(of: "token_env: SIGNER_TOKEN}", with: "token_env: SIGNER_TOKEN, ca_file: ca.pem}"))
        for command in ["validate", "run"] {
            let outcome = try await BinaryRunner.run([command, "job.yaml"], in: directory.url, environment: ["SIGNER_TOKEN": "t"])
            #expect(outcome.status == 78, "\(command): \(outcome.stderr)")
            #expect(!outcome.stdout.contains("run "), "\(command) started a run: \(outcome.stdout)")
            #expect(outcome.stderr == "Error: \(directory.path)/job.yaml: signer.ca_file \(directory.path)/ca.pem: No such file or directory\n", "\(command)")
        }
    }

    @Test func refusesTLSFilesItCannotUseBeforeListening() async throws {
        let directory = try TemporaryDirectory()
        let pair = try await SelfSignedCertificate.make(in: directory.path, name: "signer", subjectAltName: "IP:127.0.0.1")
        let other = try await SelfSignedCertificate.make(in: directory.path, name: "other", subjectAltName: "IP:127.0.0.1")
        chmod(pair.key, 0o644)
        chmod(other.key, 0o600)
        try directory.write("policy.yaml", SigningRefusalTests.policy(allowing: ["thumbs"], token: "t"))
        let base = ["sign-server", "--policy", "policy.yaml", "--listen", "127.0.0.1:0"]
        let cases: [([String], Int32, String)] = [
            (["--tls-cert", pair.certificate], 64, "Error: --tls-cert needs --tls-key\n"),
            (["--tls-key", pair.key], 64, "Error: --tls-key needs --tls-cert\n"),
            (["--tls-cert", "missing.crt", "--tls-key", pair.key], 78, "Error: --tls-cert missing.crt: No such file or directory\n"),
            (["--tls-cert", pair.certificate, "--tls-key", pair.key], 78, "Error: --tls-key: "),
            (["--tls-cert", pair.certificate, "--tls-key", other.key], 78,
             "Error: sign-server: the TLS certificate and key were refused: "),
        ]
        for (options, status, message) in cases {
            let outcome = try await BinaryRunner.run(base + options, in: directory.url, environment: ["TL_SECRET": "s"])
            #expect(outcome.status == status, "\(options): \(outcome.stderr)")
            // libmicrohttpd's own line may come before the error
            let error = outcome.stderr.split(separator: "\n").first { $0.hasPrefix("Error: ") }.map { String($0) + "\n" } ?? ""
            #expect(error.hasPrefix(message), "\(options): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty, "\(options) listened: \(outcome.stdout)")
        }
    }
}
