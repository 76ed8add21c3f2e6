import AssemblyLine
import Digests
import Foundation
import SignServer
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built `assemblyline sign-server`, started as an operator starts it, driven by `BackendSigner` over libcurl.
@Suite(.timeLimit(.minutes(3))) struct SignServerBinaryTests {
    /// The binary beside the test bundle, which `swift build --build-tests` builds with it.
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("assemblyline").path

    @Test func servesOnAnEphemeralPortAndStopsOnSIGTERM() async throws {
        // Given a policy file whose secret comes from the environment
        let scratch = try TemporaryDirectory()
        let directory = scratch.url
        let policy = directory.appendingPathComponent("policy.yaml")
        try Data("""
            key: \(SignServerFixture.key)
            secret_env: SIGN_SECRET
            tokens_sha256: [\(Hex.encode(Digest.sha256(Array(SignServerFixture.token.utf8))))]
            templates: [tpl-ok]

            """.utf8).write(to: policy)
        // When the binary starts on port 0
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["sign-server", "--policy", policy.path, "--listen", "127.0.0.1:0"]
        process.environment = ["SIGN_SECRET": SignServerFixture.secret, "PATH": "/usr/bin:/bin"]
        let output = ChildLaunch.pipe(), errors = ChildLaunch.pipe()
        process.standardOutput = output
        process.standardError = errors
        try ChildLaunch.run(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Then its first line names the address, and it signs there
        let descriptor = output.fileHandleForReading.fileDescriptor
        let first = try await offThePool { Self.firstLine(descriptor) }
        #expect(first.hasPrefix("listening on http://127.0.0.1:"))
        let url = String(first.dropFirst("listening on ".count)) + "/sign"
        let signer = try BackendSigner(url: url, token: SignServerFixture.token, timeout: .seconds(5), transport: SignServerFixture.transport)
        let params = TestParams.template()
        let signature = try await signer.sign(params)
        #expect(HMAC.verifyTransloaditSignature(signature, params: params, secret: SignServerFixture.secret))
        #expect(await signingError(signer, TestParams.template("tpl-evil")) == .denied(reason: PolicyRefusal.templateNotAllowed("tpl-evil").reason))
        // And SIGTERM stops it cleanly with exit 0, its log naming each decision without the token or secret
        kill(process.processIdentifier, SIGTERM)
        let errorHandle = errors.fileHandleForReading
        let log = try await offThePool {
            let text = String(decoding: errorHandle.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilEnded()
            return text
        }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        // A signer under load may ask again after its timeout: each decision is a line, the refusal after a signing.
        let lines = log.split(separator: "\n")
        let signed = lines.firstIndex { $0.contains(" 200 SIGNED ") }, refused = lines.firstIndex { $0.contains(" 403 TEMPLATE_NOT_ALLOWED ") }
        #expect(signed != nil && refused != nil && signed! < refused!, "\(log)")
        let others = lines.filter { !$0.contains(" 200 SIGNED ") && !$0.contains(" 403 ") && !$0.hasPrefix("sign-server: http: ") }
        #expect(others == ["sign-server: stopped on signal 15"], "only the stop and the server's notices are not decisions: \(log)")
        #expect(!log.contains(SignServerFixture.token) && !log.contains(SignServerFixture.secret))
    }

    /// Runs blocking work on a thread of its own, so that the tests sharing the cooperative pool are not held up.
    /// Reads up to the first newline, byte by byte, so that nothing after it is consumed; empty at end of file.
    static func firstLine(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
