import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import SQLiteLedger
import Synchronization
import TestSupport
import YAMLReader

/// A job of small text files run in-process by a real ``RunSession``: a real SQLite ledger in a temporary
/// state directory, a scripted Transloadit (``ScriptedService``) and a manual clock. No socket, no child, no sleep.
final class SessionHarness: Sendable {
    static let endpoint = "https://api.test"

    let directory: TemporaryDirectory
    let service: ScriptedService
    let clock = ManualClock()
    let observer = RecordingObserver()
    /// The SQL text of every statement the session's ledgers ran.
    let statements = Recorder<String>()
    /// The manifest's text beyond the base, e.g. `"shards: {files: 1}"`.
    let extra: String
    /// `output.layout`.
    let layout: String

    /// A job of `files` (names under `in/`, with their contents), sharded by two.
    /// With `bucket`, the service's import steps fetch `bucket/<key>` of the directory (``ScriptedService/bucketDirectory``);
    /// with `urls`, its `/http/import` steps fetch `web/<the URL's last segment>` (``ScriptedService/urlDirectory``).
    init(files: [String: String] = ["a.txt": "first\n", "b.txt": "second file\n", "c.txt": "third, longest file\n"],
         extra: String = "", layout: String = "{relpath}.{ext}", bucket: Bool = false, urls: Bool = false) throws {
        directory = try TemporaryDirectory()
        for (name, text) in files { try directory.write("in/\(name)", text) }
        service = ScriptedService(bucketDirectory: bucket ? directory.file("bucket") : nil, urlDirectory: urls ? directory.file("web") : nil)
        self.extra = extra
        self.layout = layout
        try writeManifest()
    }

    /// Writes `job.yaml` with `recipe` (the Template `copy` by default), and `extra` instead of the harness's when given.
    func writeManifest(recipe: String = "template: {id: copy}", extra: String? = nil) throws {
        try directory.write("job.yaml", """
            version: 1
            name: session
            endpoint: \(Self.endpoint)
            auth: {key: k}
            signer: {kind: local, secret_env: TL_SECRET}
            inputs: {include: "in/*.txt", base: in}
            \(recipe)
            shards: {files: 2}
            retry: {attempts: 3, base_delay: 1s, max_delay: 4s}
            output: {layout: "\(layout)"}
            state_dir: state
            \(extra ?? self.extra)

            """)
    }

    /// Writes `job.yaml` of a night of remote inputs named `name`: `inputs` (the section's lines, indented by two), the step `copy`
    /// of `:original` (the import step's files), shards of two, outputs at `{relpath}.{ext}`, and `extra`.
    func writeRemoteManifest(name: String, inputs: String, extra: String) throws {
        try directory.write("job.yaml", """
            version: 1
            name: \(name)
            endpoint: \(Self.endpoint)
            auth: {key: k}
            signer: {kind: local, secret_env: TL_SECRET}
            inputs:
            \(inputs)
            steps: {copy: {robot: /file/filter, use: ":original", result: true}}
            shards: {files: 2}
            output: {layout: "{relpath}.{ext}"}
            state_dir: state
            \(extra)

            """)
    }

    var stateDirectory: String { directory.file("state") }
    var outputDirectory: String { directory.file("state/output") }

    /// The manifest as `run` reads it: `job.yaml`, or another file of the directory.
    func manifest(at file: String = "job.yaml") throws -> Manifest {
        let path = directory.file(file)
        let root = try YAMLReader.parse(try SourceText(contentsOfFile: path))
        return try ManifestDecoder(displayPath: path, absolutePath: path, environment: [:]).decode(root)
    }

    /// A session of the manifest (`job.yaml`, or another) on the scripted service; `embedded` skips the endpoint's preflight.
    func session(embedded: Bool = true, manifest file: String = "job.yaml", adopts: Bool = false, acceptsRecipe: Bool = false) throws -> RunSession {
        RunSession(manifest: try manifest(at: file), stateDirectory: stateDirectory,
                   adapters: ScriptedAdapters(transport: service.transport, clock: clock, embedded: embedded, statements: statements),
                   adopts: adopts, acceptsRecipe: acceptsRecipe)
    }

    /// How a session of the harness reaches remote inputs: over the scripted service.
    var remoteInputs: any RemoteInputAccess {
        ScriptedAdapters(transport: service.transport, clock: clock, embedded: true, statements: statements)
    }

    /// Runs the manifest (`job.yaml`, or another) to its end.
    func run(force: Bool = false, retryFailed: Bool = false, stop: RunStop = RunStop(), embedded: Bool = true, manifest file: String = "job.yaml",
             adopts: Bool = false, acceptsRecipe: Bool = false) async throws -> RunOutcome {
        try await session(embedded: embedded, manifest: file, adopts: adopts, acceptsRecipe: acceptsRecipe).run(force: force, checksums: false, retryFailed: retryFailed,
                                                                                  maxDuration: nil, observer: observer, stop: stop)
    }

    /// Resumes `run`, only `shards` when given.
    func resume(_ run: RunID, shards: Set<Int> = []) async throws -> RunOutcome {
        let record = try await ledger { try await $0.run(run).record }
        return try await session().resume(record, shards: shards, maxDuration: nil, observer: observer, stop: RunStop())
    }

    /// What a resume of `run` would do, as `resume` asks before it loads the manifest.
    func resumption(of run: RunID?, shards: Set<Int> = []) async throws -> Resumption {
        try await ledger { try await RunSession.resumption(of: run, shards: shards, matching: RunFilter(), in: $0, path: "ledger.sqlite") }
    }

    /// Reads the state directory's ledger, or another's.
    func ledger<T>(in directory: String? = nil, _ body: (SQLiteLedger) async throws -> T) async throws -> T {
        try await SQLiteLedger.with(stateDirectory: directory ?? stateDirectory, mode: .readOnly, body)
    }

    /// The bytes of the output of input `name` (`a.txt` → `state/output/a.txt`), nil when it is not on disk.
    func output(_ name: String) -> String? {
        FileManager.default.contents(atPath: "\(outputDirectory)/\(name)").map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The adapters of a session in a test: the real ledger, the scripted transport, a signer that signs everything, the manual clock.
struct ScriptedAdapters: RunAdapters {
    let transport: ScriptedTransport
    let clock: ManualClock
    let embedded: Bool
    let ledgers: any LedgerStore
    let digester: any FileDigester = LibcryptoFileDigester()

    init(transport: ScriptedTransport, clock: ManualClock, embedded: Bool, statements: Recorder<String>) {
        self.transport = transport
        self.clock = clock
        self.embedded = embedded
        ledgers = SQLiteLedgerStore { statements.append($0) }
    }

    /// The bucket listed over the scripted transport, as the key ID `AKID` with the secret `listing-secret`.
    func bucketLister(for bucket: BucketInputSettings) throws -> S3BucketLister {
        S3BucketLister(address: bucket.address, credentials: S3Credentials(accessKeyID: "AKID", secret: "listing-secret"),
                       hashing: LibcryptoSigV4Hashing(), transport: transport, clock: clock)
    }

    func headProbe(rule: InputURLRule) -> URLHeadProbe {
        URLHeadProbe(rule: rule, transport: transport)
    }

    func withPorts<T: Sendable>(for manifest: Manifest, stateDirectory: String,
                                _ body: (RunPorts) async throws -> T) async throws -> T {
        try await ledgers.withLedger(in: stateDirectory) { ledger in
            try await body(RunPorts(ledger: ledger, transport: transport, signer: FixedSigner(), endpoint: SessionHarness.endpoint, key: "k",
                                    endpointIsEmbedded: embedded, clock: clock, seed: 1))
        }
    }
}

/// A signer that signs everything with the same signature: the tests look at the run, not at signatures.
struct FixedSigner: Signer {
    func sign(_ params: String) async throws(SigningError) -> String {
        "sha384:" + String(repeating: "ab", count: 48)
    }
}

/// Everything a run told, in order.
final class RecordingObserver: RunObserver {
    let warnings = Recorder<PlanWarning>()
    let starts = Recorder<StartedRun>()
    let events = Recorder<ShardEvent>()
    let waits = Recorder<CreationWait>()
    let stops = Recorder<RunStop.Reason>()
    let outcomes = Recorder<RunOutcome>()

    func planned(_ warnings: [PlanWarning]) { warnings.forEach(self.warnings.append) }
    func started(_ run: StartedRun) { starts.append(run) }
    func report(_ event: ShardEvent) { events.append(event) }
    func waiting(_ wait: CreationWait) { waits.append(wait) }
    func sent(_ bytes: Int64) {}
    func stopping(_ reason: RunStop.Reason) { stops.append(reason) }
    func ended(_ outcome: RunOutcome) { outcomes.append(outcome) }
}
