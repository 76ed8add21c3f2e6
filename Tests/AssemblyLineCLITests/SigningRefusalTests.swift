import AssemblyLine
import Digests
import Foundation
import TestSupport
import Testing

/// `run` and `resume` against `assemblyline serve` and `assemblyline sign-server` as child processes: a signing
/// policy that refuses one Template fails only the shards that use it, and `resume` completes them once it allows it.
@Suite(.timeLimit(.minutes(3))) struct SigningRefusalTests {
    static let key = "5ca1ab1e0ddba11fee1dc0ffee15600d"

    /// Two Templates at the service, both resizing, into different boxes and steps.
    static let templates = """
        thumbs:
          steps:
            thumb: {robot: /image/resize, use: ":original", width: 160, height: 120, resize_strategy: fit, format: jpg}
        posters:
          steps:
            poster: {robot: /image/resize, use: ":original", width: 320, height: 240, resize_strategy: fit, format: jpg}

        """

    static func policy(allowing templates: [String], token: String) -> String {
        """
        key: \(key)
        secret_env: TL_SECRET
        tokens_sha256: [\(Hex.encode(Digest.sha256(Array(token.utf8))))]
        templates: [\(templates.joined(separator: ", "))]

        """
    }

    /// `serve` as a child in `directory`, holding ``templates``, with Auth Key ``key`` and `secret`; the policy
    /// file is written beside it for a signer that allows `allowing` to `token`.
    static func service(in directory: TemporaryDirectory, secret: String, policyAllowing allowing: [String], token: String) throws -> ChildServer {
        try directory.write("templates.yaml", templates)
        try directory.write("policy.yaml", policy(allowing: allowing, token: token))
        return try ChildServer(["serve", "--listen", "127.0.0.1:0", "--data-dir", "service", "--key", key,
                                "--secret-env", "TL_SECRET", "--templates", "templates.yaml"],
                               in: directory.url, name: "serve", environment: ["TL_SECRET": secret])
    }

    /// A manifest using Template `template` at `endpoint`, signed by the backend at `signer`; four shards of three files.
    static func manifest(template: String, endpoint: String, signer: String) -> String {
        """
        version: 1
        name: \(template)
        endpoint: \(endpoint)
        auth: {key: \(key)}
        signer: {kind: backend, url: \(signer)/sign, token_env: SIGNER_TOKEN}
        inputs: {include: "in/**/*.png", base: in}
        template: {id: \(template)}
        shards: {files: 3}
        concurrency: {assemblies: 2}
        retry: {attempts: 3, base_delay: 50ms, max_delay: 200ms}
        poll: {interval: 50ms, max_interval: 200ms}
        state_dir: state

        """
    }

    @Test func aRefusedTemplateFailsOnlyItsShardsAndResumeCompletesThemOnceThePolicyAllowsIt() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        let token = "token-\(UUID().uuidString)"
        let serve = try Self.service(in: directory, secret: secret, policyAllowing: ["posters"], token: token)
        defer { serve.stop() }
        let signServer = try ChildServer(["sign-server", "--policy", "policy.yaml", "--listen", "127.0.0.1:0"],
                                         in: directory.url, name: "sign-server", environment: ["TL_SECRET": secret])
        defer { signServer.stop() }
        let endpoint = try await serve.baseURL()
        let signerURL = try await signServer.baseURL()
        for template in ["thumbs", "posters"] {
            try directory.write("job/\(template).yaml", Self.manifest(template: template, endpoint: endpoint, signer: signerURL))
        }
        let environment = ["SIGNER_TOKEN": token]
        let listing = AssemblyListing(baseURL: endpoint, key: Self.key, secret: secret)
        var printed: [String] = []

        let refused = try await BinaryRunner.run(["run", "job/thumbs.yaml"], in: directory.url, environment: environment)
        printed += [refused.stdout, refused.stderr]
        #expect(refused.status == 77, "a refused signature exits 77: \(refused.stdout)\(refused.stderr)")
        let runID = try #require(refused.stdout.split(separator: "\n").first.flatMap { RunID(String($0)) })
        #expect(refused.stdout.contains("run \(runID) failed: shards 0 done, 4 failed, 0 unfinished; files 0 done, 12 failed"))
        #expect(try await listing.items().isEmpty, "a refused signature created an Assembly")

        let failedTable = try await BinaryRunner.run(["report", runID.rawValue, "--failed", "--state-dir", "job/state"], in: directory.url)
        printed += [failedTable.stdout, failedTable.stderr]
        #expect(failedTable.status == 0)
        let rows = failedTable.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == 12, "\(failedTable.stdout)")
        #expect(rows.allSatisfy { $0.contains("SIGNING_REFUSED") && $0.contains(#"template_id "thumbs" is not an allowed Template"#) },
                "\(failedTable.stdout)")

        let json = try await BinaryRunner.run(["report", runID.rawValue, "--format", "json", "--state-dir", "job/state"], in: directory.url)
        printed += [json.stdout, json.stderr]
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((report["files_by_state"] as? [String: Int])?["failed"] == 12)
        let shards = try #require(report["shard_list"] as? [[String: Any]])
        #expect(shards.count == 4)
        for shard in shards {
            let failure = shard["failure"] as? [String: Any]
            #expect(shard["state"] as? String == "failed")
            #expect(failure?["code"] as? String == "SIGNING_REFUSED")
            #expect(failure?["retryable"] as? Bool == false)
            #expect((failure?["message"] as? String)?.contains("denied the params") == true)
        }
        #expect((report["failures"] as? [[String: Any]])?.map { $0["code"] as? String } == ["SIGNING_REFUSED"])

        let posters = try await BinaryRunner.run(["run", "job/posters.yaml"], in: directory.url, environment: environment)
        printed += [posters.stdout, posters.stderr]
        #expect(posters.status == 0, "\(posters.stdout)\(posters.stderr)")
        #expect(posters.stdout.contains("files 12 done, 0 failed, 0 skipped, 0 pending"))
        let postersRun = try #require(posters.stdout.split(separator: "\n").first.flatMap { RunID(String($0)) })
        let postersLedger = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: postersRun)
        let postersProblems = postersLedger.resultProblems { RunInspection.fitted($0, into: (320, 240)) }
        #expect(postersProblems.isEmpty, "\(postersProblems)")
        let afterPosters = try await listing.items()
        #expect(afterPosters.count == 4 && afterPosters.allSatisfy { $0.templateID == "posters" && $0.isCompleted })

        // The policy is fixed and the signer restarted where the manifest points: resume completes the refused shards.
        let signerPort = try await signServer.port()
        #expect(signServer.stop() == 0)
        try directory.write("policy.yaml", Self.policy(allowing: ["posters", "thumbs"], token: token))
        let fixedSigner = try ChildServer(["sign-server", "--policy", "policy.yaml", "--listen", "127.0.0.1:\(signerPort)"],
                                          in: directory.url, name: "sign-server-fixed", environment: ["TL_SECRET": secret])
        defer { fixedSigner.stop() }
        #expect(try await fixedSigner.baseURL() == signerURL)

        let resumed = try await BinaryRunner.run(["resume", runID.rawValue, "--state-dir", "job/state"], in: directory.url, environment: environment)
        printed += [resumed.stdout, resumed.stderr]
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(resumed.stdout.contains("run \(runID) finished: shards 4 done, 0 failed, 0 unfinished; files 12 done, 0 failed, 0 skipped, 0 pending"))

        let inspection = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: runID)
        let problems = inspection.resultProblems { RunInspection.fitted($0, into: (160, 120)) }
        #expect(problems.isEmpty, "\(problems)")
        let all = try await listing.items()
        let thumbs = all.filter { $0.templateID == "thumbs" }
        #expect(all.count == 8 && thumbs.count == 4)
        #expect(Set(thumbs.map(\.id)) == Set(inspection.attempts.filter { $0.outcome == .completed }.map(\.assemblyID.rawValue)))

        let reportAfter = try await BinaryRunner.run(["report", runID.rawValue, "--failed", "--state-dir", "job/state"], in: directory.url)
        #expect(reportAfter.stdout == "no failed files in run \(runID)\n")
        #expect(fixedSigner.stop() == 0 && serve.stop() == 0)
        printed += [serve.output, serve.errors, signServer.output, signServer.errors, fixedSigner.output, fixedSigner.errors]
        #expect(signServer.errors.contains("403 TEMPLATE_NOT_ALLOWED"))
        for text in printed {
            #expect(!text.contains(token), "the signer token was printed")
            #expect(!text.contains(secret), "the Auth Secret was printed")
        }
        for name in ["ledger.sqlite", "ledger.sqlite-wal"] {
            let ledger = (try? Data(contentsOf: directory.url.appendingPathComponent("job/state/\(name)"))) ?? Data()
            #expect(ledger.range(of: Data(token.utf8)) == nil && ledger.range(of: Data(secret.utf8)) == nil, "\(name) holds a secret")
        }
    }
}
