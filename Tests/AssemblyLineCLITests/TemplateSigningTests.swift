import Foundation
import TestSupport
import Testing

/// `templates` through a signing backend, as a batch host without the Auth Secret runs them: `sign-server`'s default
/// policy grants the Template API's reads (pull, diff, the drift check) and refuses its writes, which `template_api:
/// write` grants.
@Suite(.timeLimit(.minutes(3))) struct TemplateSigningTests {
    @Test func theDefaultPolicyLetsABatchHostPullAndDiffButNotPush() async throws {
        let directory = try TemporaryDirectory()
        let secret = "secret-\(UUID().uuidString)", token = "token-\(UUID().uuidString)"
        let serve = try SigningRefusalTests.service(in: directory, secret: secret, policyAllowing: ["thumbs"], token: token)
        defer { serve.stop() }
        let signServer = try ChildServer(["sign-server", "--policy", "policy.yaml", "--listen", "127.0.0.1:0"],
                                         in: directory.url, name: "sign-server", environment: ["TL_SECRET": secret])
        defer { signServer.stop() }
        let manifest = SigningRefusalTests.manifest(template: "thumbs", endpoint: try await serve.baseURL(), signer: try await signServer.baseURL())
            .replacingOccurrences(of: "template: {id: thumbs}", with: "template: {id: thumbs, file: thumbs.json}")
        try directory.write("job.yaml", manifest)
        let environment = ["SIGNER_TOKEN": token]

        let pull = try await BinaryRunner.run(["templates", "pull", "job.yaml"], in: directory.url, environment: environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let pulled = try String(contentsOfFile: directory.file("thumbs.json"), encoding: .utf8)
        #expect(pulled.contains("\"width\": 160"), "\(pulled)")
        let same = try await BinaryRunner.run(["templates", "diff", "job.yaml"], in: directory.url, environment: environment)
        #expect(same.status == 0 && same.stdout.isEmpty, "\(same.stderr)")

        try directory.write("thumbs.json", pulled.replacingOccurrences(of: "\"width\": 160", with: "\"width\": 80"))
        let push = try await BinaryRunner.run(["templates", "push", "job.yaml"], in: directory.url, environment: environment)
        #expect(push.status == 77, "\(push.stderr)")
        #expect(push.stderr.contains("are a Template write, signed only with template_api: write"), "\(push.stderr)")
        let drift = try await BinaryRunner.run(["templates", "diff", "job.yaml"], in: directory.url, environment: environment)
        #expect(drift.status == 1 && drift.stdout == "~ steps.thumb.width: 80 → 160\n", "the account kept its Template: \(drift.stdout)")
        for outcome in [pull, same, push, drift] {
            #expect(!outcome.stdout.contains(token) && !outcome.stderr.contains(token) && !outcome.stderr.contains(secret))
        }
    }
}
