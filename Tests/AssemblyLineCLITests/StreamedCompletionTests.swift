import Foundation
import TestSupport
import Testing

/// With the manifest's defaults a run follows each Assembly's change stream: one status request an
/// Assembly confirms what the stream said; with `poll.stream: false` it polls alone.
@Suite(.timeLimit(.minutes(3))) struct StreamedCompletionTests {
    /// The requests `serve` says each route answered, from its closing line.
    static func answered(by serve: ChildServer) throws -> [String: Int] {
        let line = try #require(serve.errors.split(separator: "\n").first { $0.hasPrefix("serve: requests answered: ") })
        var counts: [String: Int] = [:]
        for entry in line.dropFirst("serve: requests answered: ".count).split(separator: ",") {
            let parts = entry.split(separator: " ")
            if parts.count == 2, let count = Int(parts[1]) { counts[String(parts[0])] = count }
        }
        return counts
    }

    static func run(streaming: Bool) async throws -> [String: Int] {
        let directory = try await RunCommandTests.job()
        let serve = try ChildServer(["serve", "--listen", "127.0.0.1:0", "--data-dir", "service", "--key", "k", "--secret-env", "TL_SECRET",
                                     "--status-per-second", "0"],
                                    in: directory.url, name: "serve", environment: ["TL_SECRET": "s"])
        let manifest = """
            version: 1
            name: streamed
            endpoint: \(try await serve.baseURL())
            auth: {key: k}
            signer: {kind: local, secret_env: TL_SECRET}
            inputs: {include: "in/**/*.png", base: in}
            resize: {width: 160, height: 120, strategy: fit, format: jpg}
            shards: {files: 3}
            concurrency: {assemblies: 2}
            \(streaming ? "" : "poll: {interval: 50ms, max_interval: 50ms, stream: false}")
            state_dir: state

            """
        try directory.write("job/streamed.yaml", manifest)
        let run = try await BinaryRunner.run(["run", "job/streamed.yaml"], in: directory.url, environment: ["TL_SECRET": "s"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("files 12 done, 0 failed"), "\(run.stdout)")
        #expect(serve.stop() == 0)
        return try answered(by: serve)
    }

    @Test func aRunWithTheDefaultsAsksOnceAnAssemblyAndPollsAloneWithoutTheStream() async throws {
        let streamed = try await Self.run(streaming: true)
        #expect(streamed["create"] == 4 && streamed["stream"] == 4, "\(streamed)")
        #expect(streamed["status"] == 4, "one status request an Assembly, after the stream said it finished: \(streamed)")
        // Results are fetched as the stream announces them, and the completed shard keeps them: each once
        #expect(streamed["download"] == 12, "\(streamed)")

        let polled = try await Self.run(streaming: false)
        #expect(polled["create"] == 4 && polled["stream"] == nil, "\(polled)")
        #expect((polled["status"] ?? 0) >= 4, "\(polled)")
    }
}
