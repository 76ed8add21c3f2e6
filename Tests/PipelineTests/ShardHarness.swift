@testable import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import SQLiteLedger
import TestSupport

/// One shard of two small files on a real SQLite ledger, driven in-process against a scripted
/// transport on a manual clock: no socket, no service, no sleep.
final class ShardHarness: Sendable {
    static let endpoint = "https://api.test"
    static let machine = "https://api-m1.test"

    let directory: TemporaryDirectory
    let transport = ScriptedTransport()
    let clock = ManualClock()
    let ledger: SQLiteLedger
    let run: RunID
    let files: [PlannedFile]
    let contents: [[UInt8]] = [Array("first file\n".utf8), Array("second, longer file\n".utf8)]
    private let reported = Recorder<ShardEvent>()

    init() async throws {
        directory = try TemporaryDirectory()
        var planned: [PlannedFile] = []
        for (index, bytes) in contents.enumerated() {
            let path = try directory.write("in-\(index).txt", bytes)
            planned.append(try TestFiles.planned(path))
        }
        files = planned
        ledger = try await SQLiteLedger.open(path: directory.file("ledger.sqlite"))
        run = try await ledger.createRun(NewRun(
            id: RunID.generate(at: clock.now), manifestPath: directory.file("job.yaml"), manifestName: "job",
            recipeFingerprint: "sha256:test", plan: Plan(shards: [Shard(index: 0, files: planned)]), createdAt: clock.now)).id
    }

    /// What the shard reported, in order.
    var events: [ShardEvent] { reported.all }

    /// The kinds of what the shard reported, in order.
    var eventKinds: [ShardEvent.Kind] { events.map(\.kind) }

    /// Runs the shard from its ledger state with `attempts` tries and a poll timeout of `pollTimeout`, telling `checkpoint` of each
    /// checkpoint passed.
    func runShard(attempts: Int = 3, pollTimeout: Duration = .seconds(3_600),
                  steps: ResultSelection = ResultSelection(downloaded: nil, exported: []),
                  checkpoint: @escaping @Sendable (PipelineCheckpoint) -> Void = { _ in }) async throws -> ShardState {
        let context = try context(attempts: attempts, pollTimeout: pollTimeout, steps: steps, checkpoint: checkpoint)
        let shard = try await ledger.shards(of: run)[0]
        return try await ShardRunner(context: context, shard: shard).run().state
    }

    /// The pipeline's context for the shard: the scripted transport, the manual clock, the real ledger.
    func context(attempts: Int = 3, pollTimeout: Duration = .seconds(3_600),
                 steps: ResultSelection = ResultSelection(downloaded: nil, exported: []),
                 checkpoint: @escaping @Sendable (PipelineCheckpoint) -> Void = { _ in }) throws -> PipelineContext {
        let client = TransloaditClient(transport: transport, endpoint: Self.endpoint)
        return PipelineContext(
            runID: run, ledger: ledger, client: client,
            downloader: ResultDownloader(client: client, digester: LibcryptoFileDigester()), signer: FixedSigner(),
            params: AssemblyParams(key: "key", expiresIn: .seconds(3_600), instructions: .template(id: "thumbs", fields: [:])),
            governor: Governor(limits: RateLimits(creationsPerMinute: 100_000, statusRequestsPerSecond: 1_000),
                               concurrency: ConcurrencyLimits(assemblies: 1, uploads: 2, downloads: 2), clock: clock),
            retry: RetryPolicy(attempts: attempts, baseDelay: .seconds(1), maxDelay: .seconds(4)),
            poll: PollSettings(interval: .seconds(1), maxInterval: .seconds(4), timeout: pollTimeout),
            output: OutputSettings(dir: directory.file("out"), layout: try OutputLayout("{relpath}.{ext}"), steps: steps),
            report: reported.sink, checkpoint: checkpoint,
            clock: clock, seed: 1)
    }

    // MARK: - Answers

    /// The Assembly ID a request names at the end of its path.
    static func assemblyID(of request: HTTPRequestSpec) -> String {
        String(request.url.split(separator: "/").last ?? "")
    }

    /// A status JSON for the Assembly `id` in state `ok`, with `results` when given.
    static func status(_ ok: String, id: String, results: String = "{}") -> String {
        #"{"ok":"\#(ok)","assembly_id":"\#(id)","assembly_ssl_url":"\#(machine)/assemblies/\#(id)","results":\#(results)}"#
    }

    /// The `results` of a completed Assembly: one `txt` per input, with its size and MD5.
    func results() -> String {
        #"{"copy":[\#(contents.indices.map(resultEntry).joined(separator: ","))]}"#
    }

    /// The result of input `index` as a status lists it: a `txt` with its size and MD5.
    func resultEntry(_ index: Int) -> String {
        #"{"id":"r\#(index)","name":"out-\#(index).txt","ext":"txt","field":"file_\#(index)","size":\#(contents[index].count),"#
            + #""md5hash":"\#(Hex.encode(Digest.md5(contents[index])))","ssl_url":"https://tmp.test/r\#(index)/out-\#(index).txt"}"#
    }

    /// Scripts a creation answered with `ok`.
    func acceptCreation(_ ok: String = "ASSEMBLY_EXECUTING") {
        transport.script(.post, "/assemblies/") { .json(200, Self.status(ok, id: Self.assemblyID(of: $0))) }
    }

    /// Scripts `polls` status answers of `ok`, then one completed with `results` (by default ``results()``).
    func answerPolls(executing polls: Int = 1, results: String? = nil) {
        if polls > 0 {
            transport.script(.get, "\(Self.machine)/assemblies/", times: polls) { .json(200, Self.status("ASSEMBLY_EXECUTING", id: Self.assemblyID(of: $0))) }
        }
        let completed = results ?? self.results()
        transport.script(.get, "\(Self.machine)/assemblies/") { .json(200, Self.status("ASSEMBLY_COMPLETED", id: Self.assemblyID(of: $0), results: completed)) }
    }

    /// Scripts the result downloads.
    func serveResults() {
        for (index, bytes) in contents.enumerated() {
            transport.script(.get, "https://tmp.test/r\(index)/") { _ in .bytes(200, bytes) }
        }
    }

    /// The bytes of the downloaded output of input `index`, nil when it is not on disk.
    func output(_ index: Int) -> [UInt8]? {
        FileManager.default.contents(atPath: directory.file("out/in-\(index).txt"))
            .map(Array.init)
    }
}

/// A signer that signs everything with the same signature: the tests look at the pipeline, not at signatures.
struct FixedSigner: Signer {
    func sign(_ params: String) async throws(SigningError) -> String {
        "sha384:" + String(repeating: "ab", count: 48)
    }
}
