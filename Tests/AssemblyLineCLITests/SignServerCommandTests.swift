import Foundation
import TestSupport
import Testing

/// `assemblyline sign-server` refusals that happen before it listens.
@Suite(.timeLimit(.minutes(3))) struct SignServerCommandTests {
    @Test func reportsEveryErrorOfAnInvalidPolicyAndExits65() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("policy.yaml", """
            key: k
            secret_env: S
            tokens_sha256: [abc]
            max_expires_in: forever

            """)
        let outcome = try await BinaryRunner.run(["sign-server", "--policy", "policy.yaml", "--listen", "127.0.0.1:0"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("policy.yaml:3:17: tokens_sha256[0]: expected a SHA-256 digest of 64 hex digits"))
        #expect(outcome.stderr.contains("policy.yaml:4:17: max_expires_in: expected a duration"))
        #expect(outcome.stderr.contains("policy.yaml:1:1: missing templates and steps"))
        #expect(outcome.stderr.contains("3 errors in policy.yaml"))
    }

    @Test func refusesAnUnsetSecretWith78NamingTheVariable() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("policy.yaml", "key: k\nsecret_env: SIGN_SECRET_UNSET\ntokens_sha256: [\(String(repeating: "a", count: 64))]\ntemplates: [t]\n")
        let outcome = try await BinaryRunner.run(["sign-server", "--policy", "policy.yaml", "--listen", "127.0.0.1:0"], in: directory.url)
        #expect(outcome.status == 78)
        #expect(outcome.stderr == "Error: policy.yaml: secret: environment variable SIGN_SECRET_UNSET is not set; expected it to hold the secret or token\n")
    }

    @Test(arguments: [
        (["sign-server"], "Error: missing '--policy <file>'"),
        (["sign-server", "--policy", "p.yaml", "--listen", "127.0.0.1"], "Error: --listen expects HOST:PORT (for example 127.0.0.1:0), found '127.0.0.1'"),
        (["sign-server", "--policy", "p.yaml", "--listen", "127.0.0.1:65536"], "Error: --listen expects HOST:PORT (for example 127.0.0.1:0), found '127.0.0.1:65536'"),
    ])
    func refusesABadCommandLineWith64(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BinaryRunner.run(arguments, in: directory.url)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix(message + "\n"))
    }

    @Test func refusesAnAddressItCannotListenOnWith69() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("policy.yaml", "key: k\nsecret_env: S\ntokens_sha256: [\(String(repeating: "a", count: 64))]\ntemplates: [t]\n")
        let outcome = try await BinaryRunner.run(["sign-server", "--policy", "policy.yaml", "--listen", "example.com:9443"], in: directory.url, environment: ["S": "x"])
        #expect(outcome.status == 69)
        #expect(outcome.stderr.hasPrefix("Error: sign-server: listen host 'example.com'"))
    }
}
