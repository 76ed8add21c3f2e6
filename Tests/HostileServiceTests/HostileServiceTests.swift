import Foundation
import HTTPMessages
import HTTPServer
import SQLiteLedger
import TestSupport
import Testing

/// The built binary against a Transloadit and a signer that lie, stall and attack, on loopback: one case per way (issue 21).
///
/// Every case ends with the same checks: the run ended within its deadlines, nothing was written
/// outside the job's state directory, every file under `output.dir` is its own input's output (the
/// bytes the service made for that input's field) and every file the ledger calls done has one,
/// the output stays small, and neither the secret nor the signer's token is in what the run
/// printed or stored.
@Suite(.timeLimit(.minutes(5))) struct HostileServiceTests {
    static let secret = "hostile-secret-5b1d9e"
    static let token = "hostile-token-0c7f3a"

    /// One way the service (or signer) misbehaves, and what the run must make of it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var behaviour: MisbehavingService.Behaviour
        /// Manifest lines added to the job's (a poll timeout, a backend signer at `{signer}`, `{free-64MiB}`: the bytes free on
        /// the job's file system less 64 MiB).
        var manifest: String = ""
        /// The signer's answer, when the case asks a backend signer.
        var signer: (@Sendable () -> HTTPResponse)?
        /// How many runs of the job, one after the other (nights); the checks are of the last.
        var nights = 1
        /// What the run must have printed and recorded, beyond the common checks.
        var expect: @Sendable (Outcome) throws -> Void
        var testDescription: String { name }
    }

    /// What a case's run left behind.
    struct Outcome: Sendable {
        var run: BinaryRunner.Outcome
        /// `state` of every file of the last run by input name (`a.png`), and its error code.
        var files: [String: (state: String, code: String?)]
        var service: MisbehavingService
        var ledgerBytes: [UInt8]
    }

    /// A status that fails `file_0` with the service's message and reason while it is in the Assembly, else completes honestly.
    static let failsA: MisbehavingService.Behaviour = .init(status: { assembly in
        guard assembly.fields.contains("file_0") else {
            return MisbehavingService.completed(assembly, results: assembly.fields.map { MisbehavingService.entry(assembly, field: $0, name: "b.png") })
        }
        return .json(#"{"ok":null,"error":"IMAGE_RESIZE_ERROR","assembly_id":"\#(assembly.id)","message":"Step 'resize' could not resize a.png","#
                     + #""reason":"VipsJpeg: Premature end of input file","original_id":"u0","uploads":[{"id":"u0","field":"file_0"}]}"#)
    })

    /// A completed status whose result for `a.png` declares no size and streams on without a `Content-Length`.
    static let unsizedEndlessA: MisbehavingService.Behaviour = .init(status: { assembly in
        MisbehavingService.completed(assembly, results: [MisbehavingService.entry(assembly, field: "file_0", name: "a.png", declared: false),
                                                         MisbehavingService.entry(assembly, field: "file_1", name: "b.png")])
    }, result: { name in
        name == "file_0" ? HTTPResponse(status: 200, body: .stream(EndlessBody())) : MisbehavingService.bytes(MisbehavingService.content(of: name))
    })

    static let cases: [Case] = [
        Case(name: "a result naming no upload of its Assembly makes no file done (item 2)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: [MisbehavingService.entry(assembly, field: "file_9", name: "z.png")])
             }),
             expect: { outcome in
                 #expect(outcome.files.mapValues(\.state) == ["a.png": "no_result", "b.png": "no_result"])
                 #expect(outcome.service.count("GET", "r") == 0, "an unmatched result is never fetched")
             }),
        Case(name: "a second result for a taken output fails its file and overwrites nothing (item 3)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: [
                     MisbehavingService.entry(assembly, field: "file_0", name: "a.png"),
                     MisbehavingService.entry(assembly, field: "file_0", name: "a.png", served: "forged"),
                     MisbehavingService.entry(assembly, field: "file_1", name: "b.png"),
                 ])
             }),
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "OUTPUT_COLLISION" && outcome.files["b.png"]?.state == "done")
             }),
        Case(name: "the service's names for a result never reach its path (item 4)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: [
                     MisbehavingService.entry(assembly, field: "file_0", name: "a.jpg/x").replacingOccurrences(of: #""ext":"png""#, with: #""ext":"j\u0000""#),
                     MisbehavingService.entry(assembly, field: "file_1", name: "b.\n\u{1B}[2J"),
                 ])
             }),
             expect: { outcome in
                 #expect(outcome.files.mapValues(\.state) == ["a.png": "done", "b.png": "done"])
             }),
        Case(name: "a status naming another Assembly is refused (item 5)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, id: "ffffffffffffffffffffffffffffffff", results: [MisbehavingService.entry(assembly, field: "file_0", name: "a.png")])
             }),
             expect: { outcome in
                 #expect(outcome.files.values.map(\.code) == ["ASSEMBLY_ID_MISMATCH", "ASSEMBLY_ID_MISMATCH"])
                 #expect(outcome.service.count("GET", "r") == 0)
             }),
        Case(name: "50,000 results for two files fail the shard without a fetch (item 5)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: (0..<50_000).map { MisbehavingService.entry(assembly, field: "file_0", name: "a\($0).png") })
             }),
             expect: { outcome in
                 #expect(outcome.files.values.map(\.code) == ["TOO_MANY_RESULTS", "TOO_MANY_RESULTS"])
                 #expect(outcome.service.count("GET", "r") == 0)
             }),
        Case(name: "a result that streams past its declared size stops there (item 6)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: [MisbehavingService.entry(assembly, field: "file_0", name: "a.png"),
                                                MisbehavingService.entry(assembly, field: "file_1", name: "b.png")])
             }, result: { name in
                 name == "file_0" ? HTTPResponse(status: 200, body: .stream(EndlessBody())) : MisbehavingService.bytes(MisbehavingService.content(of: name))
             }),
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "RESULT_TOO_LARGE")
             }),
        Case(name: "a result that declares no size and has no Content-Length stops at limits.max_undeclared_result_size (issue 33)",
             behaviour: unsizedEndlessA,
             manifest: "limits: {max_undeclared_result_size: 1MiB}\n",
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "RESULT_TOO_LARGE")
                 #expect((outcome.run.stdout + outcome.run.stderr).contains("ran past limits.max_undeclared_result_size (1048576 bytes)"),
                         "\(outcome.run.stdout)\(outcome.run.stderr)")
             }),
        Case(name: "a result that would leave less than limits.min_free_space free is not fetched (issue 33)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: [MisbehavingService.entry(assembly, field: "file_0", name: "a.png"),
                                                MisbehavingService.entry(assembly, field: "file_1", name: "b.png")])
             }),
             manifest: "limits: {min_free_space: 1024TiB}\n",
             expect: { outcome in
                 #expect(outcome.files.values.map(\.code) == ["OUTPUT_SPACE_LOW", "OUTPUT_SPACE_LOW"])
                 #expect(outcome.service.count("GET", "r") == 0, "nothing is fetched")
                 let printed = outcome.run.stdout + outcome.run.stderr
                 #expect(outcome.run.status == 73 && printed.contains("and no download leaves less than limits.min_free_space (1024TiB)"),
                         "\(outcome.run.status) \(printed)")
             }),
        Case(name: "a result without a size that streams on stops before the disk keeps less than limits.min_free_space (issue 33)",
             behaviour: unsizedEndlessA,
             manifest: "limits: {min_free_space: {free-64MiB}}\n",
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "OUTPUT_SPACE_LOW" && outcome.run.status == 73, "\(outcome.run.stdout)")
             }),
        Case(name: "a status at two bytes a second ends at the poll timeout (item 7)",
             behaviour: .init(status: { _ in
                 HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: .stream(TrickleBody(#"{"ok":"ASSEMBLY_EXECUTING"}"#)))
             }),
             manifest: "poll: {interval: 100ms, stream: false, timeout: 3s}\n",
             expect: { outcome in
                 #expect(outcome.files.values.map(\.code) == ["POLL_TIMEOUT", "POLL_TIMEOUT"])
             }),
        Case(name: "a signer that echoes the token gets it replaced (item 8)",
             behaviour: .init(status: { assembly in MisbehavingService.completed(assembly, results: []) }),
             manifest: "signer: {kind: backend, url: \"{signer}\", token_env: TL_TOKEN}\n",
             signer: { .json(#"{"error":"DENIED","reason":"token \#(HostileServiceTests.token) may not sign this"}"#, status: 403) },
             expect: { outcome in
                 #expect((outcome.run.stdout + outcome.run.stderr).contains("token [token] may not sign this"), "\(outcome.run.stderr)")
             }),
        Case(name: "an error message cannot forge a line, drive the terminal or bury the rest (item 9)",
             behaviour: .init(status: { assembly in
                 .json(#"{"error":"IMAGE_RESIZE_ERROR","assembly_id":"\#(assembly.id)","message":"bad\nshard 0: downloaded (2 files)\u001b[2J"#
                       + String(repeating: "m", count: 20_000) + #""}"#)
             }),
             expect: { outcome in
                 let printed = outcome.run.stdout + outcome.run.stderr
                 #expect(!printed.unicodeScalars.contains("\u{1B}") && !printed.split(separator: "\n").contains { $0.hasPrefix("shard 0: downloaded") })
                 #expect(printed.contains(#"bad\nshard 0: downloaded (2 files)\u{1B}[2J"#) && printed.utf8.count < 8_000, "\(printed.utf8.count) bytes printed")
             }),
        Case(name: "a result URL with credentials is refused and the password kept nowhere (item 10)",
             behaviour: .init(status: { assembly in
                 let url = assembly.base.replacingOccurrences(of: "http://", with: "http://user:hunter2@") + "/r/file_0"
                 return MisbehavingService.completed(assembly, results: [MisbehavingService.entry(assembly, field: "file_0", name: "a.png", url: url),
                                                       MisbehavingService.entry(assembly, field: "file_1", name: "b.png")])
             }),
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "RESULT_URL_REFUSED" && outcome.files["b.png"]?.state == "done")
                 #expect(!outcome.ledgerBytes.containsBytes(of: "hunter2") && !(outcome.run.stdout + outcome.run.stderr).contains("hunter2"))
             }),
        Case(name: "a result that redirects to the metadata address is refused (item 10)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: [MisbehavingService.entry(assembly, field: "file_0", name: "a.png", served: "moved"),
                                                MisbehavingService.entry(assembly, field: "file_1", name: "b.png")])
             }, result: { name in
                 guard name == "moved" else { return MisbehavingService.bytes(MisbehavingService.content(of: name)) }
                 return HTTPResponse(status: 302, headers: ["Location": "http://169.254.169.254/latest/meta-data/"], body: .empty)
             }),
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "RESULT_URL_REFUSED" && outcome.files["b.png"]?.state == "done")
             }),
        Case(name: "a result URL on another port of the loopback endpoint's host is refused (issue 33)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: [MisbehavingService.entry(assembly, field: "file_0", name: "a.png",
                                                                                           url: assembly.neighbour + "/r/file_0"),
                                                MisbehavingService.entry(assembly, field: "file_1", name: "b.png")])
             }),
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "RESULT_URL_REFUSED" && outcome.files["b.png"]?.state == "done")
                 #expect(outcome.service.count("neighbour GET", "r") == 0, "the neighbour is asked nothing")
             }),
        Case(name: "a result that redirects to another port of the loopback endpoint's host is refused (issue 33)",
             behaviour: .init(status: { assembly in
                 MisbehavingService.completed(assembly, results: [
                     MisbehavingService.entry(assembly, field: "file_0", name: "a.png",
                                              url: "\(assembly.base)/r/to-neighbour-\(assembly.neighbour.split(separator: ":").last ?? "")"),
                     MisbehavingService.entry(assembly, field: "file_1", name: "b.png"),
                 ])
             }, result: { name in
                 guard let port = name.firstMatch(of: /^to-neighbour-(\d+)$/)?.1 else { return MisbehavingService.bytes(MisbehavingService.content(of: name)) }
                 return HTTPResponse(status: 302, headers: ["Location": "http://127.0.0.1:\(port)/r/file_0"], body: .empty)
             }),
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "RESULT_URL_REFUSED" && outcome.files["b.png"]?.state == "done")
                 #expect(outcome.service.count("neighbour GET", "r") == 0, "the neighbour is asked nothing")
             }),
        Case(name: "the service's reason for a bad file is shown and stored (item 13)",
             behaviour: failsA,
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.code == "IMAGE_RESIZE_ERROR" && outcome.files["b.png"]?.state == "done")
                 #expect((outcome.run.stdout + outcome.run.stderr).contains("Step 'resize' could not resize a.png: VipsJpeg: Premature end of input file"),
                         "\(outcome.run.stderr)")
                 #expect(outcome.ledgerBytes.containsBytes(of: "could not resize a.png: VipsJpeg: Premature end of input file"))
             }),
        Case(name: "a file the service failed for a reason of its own is not sent the next night (item 14)",
             behaviour: failsA, nights: 2,
             expect: { outcome in
                 #expect(outcome.files["a.png"]?.state == "known_bad" && outcome.files["b.png"] == nil, "b.png skipped, counted")
                 #expect(outcome.service.count("POST", "assemblies") == 2, "the first night's Assembly and its restart without a.png; none after")
                 #expect(outcome.run.status == 0 && outcome.run.stdout.contains("1 known bad"), "\(outcome.run.stdout)")
             }),
    ]

    @Test(arguments: cases)
    func aHostileAnswerNeverMakesARunLie(_ hostile: Case) async throws {
        let service = try MisbehavingService(hostile.behaviour)
        let signer = try hostile.signer.map { answer in
            try HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { _ in .buffer(limit: 1 << 20) { _, _ in answer() } }
        }
        defer { signer?.stop() }
        let directory = try TemporaryDirectory()
        try directory.write("job/in/a.png", "input a")
        try directory.write("job/in/b.png", "input b")
        let free = try #require(try FileManager.default.attributesOfFileSystem(forPath: directory.path)[.systemFreeSize] as? Int64)
        let signerLines = hostile.manifest.replacingOccurrences(of: "{signer}", with: (signer?.baseURL ?? "") + "/sign")
            .replacingOccurrences(of: "{free-64MiB}", with: String(free - (64 << 20)))
        try directory.write("job/m.yaml", """
            version: 1
            name: hostile
            endpoint: \(service.url)
            auth: {key: k}
            inputs: {include: "in/*.png", base: in}
            resize: {width: 16, height: 16, format: png}
            shards: {files: 2}
            retry: {attempts: 1}
            state_dir: state
            \(signerLines.contains("signer:") ? "" : "signer: {kind: local, secret_env: TL_SECRET}\n")\
            \(signerLines.contains("poll:") ? "" : "poll: {interval: 100ms, stream: false}\n")\
            \(signerLines)
            """)
        var printed = ""
        var last: BinaryRunner.Outcome?
        for _ in 0..<hostile.nights {
            let clock = ContinuousClock()
            let start = clock.now
            let run = try await BinaryRunner.run(["run", "job/m.yaml", "-v"], in: directory.url,
                                                 environment: ["TL_SECRET": Self.secret, "TL_TOKEN": Self.token])
            #expect(clock.now - start < .seconds(60), "the run ends within its deadlines (the longest case's poll.timeout is 3 s): \(run.stdout) \(run.stderr)")
            #expect(run.reason == .exit, "\(run.stderr)")
            printed += run.stdout + run.stderr
            last = run
        }
        let run = try #require(last)

        let state = directory.url.appendingPathComponent("job/state")
        let ledgerPath = SQLiteLedger.path(inStateDirectory: state.path)
        let ledger = try SQLiteConnection(path: ledgerPath, mode: .readOnly)
        let rows = try ledger.rows("SELECT relative_path, state, error_code FROM files WHERE run_id = (SELECT id FROM runs ORDER BY rowid DESC LIMIT 1)") {
            ($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2))
        }
        // The fields of the first night, which made the outputs.
        let indices = try ledger.rows("SELECT relative_path, file_index FROM files WHERE run_id = (SELECT id FROM runs ORDER BY rowid LIMIT 1)") {
            ($0.text(0) ?? "", Int($0.integer(1) ?? -1))
        }
        let outcome = Outcome(run: run, files: Dictionary(rows.map { ($0.0, (state: $0.1, code: $0.2)) }, uniquingKeysWith: { first, _ in first }),
                              service: service, ledgerBytes: Array(try Data(contentsOf: URL(fileURLWithPath: ledgerPath))))
        try hostile.expect(outcome)
        try Self.checkCommon(outcome, printed: printed, directory: directory, indices: Dictionary(indices, uniquingKeysWith: { first, _ in first }))
    }

    /// What every case must leave: nothing outside the state directory, only own outputs, every done file on disk, no secret.
    static func checkCommon(_ outcome: Outcome, printed: String, directory: TemporaryDirectory, indices: [String: Int]) throws {
        let job = directory.url.appendingPathComponent("job")
        let written = try FileManager.default.subpathsOfDirectory(atPath: job.path).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: job.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        let outside = written.filter { !$0.hasPrefix("state/") && !["m.yaml", "in/a.png", "in/b.png"].contains($0) }
        #expect(outside.isEmpty, "written outside the state directory: \(outside)")
        let outputs = written.filter { $0.hasPrefix("state/output/") }
        var total = 0
        for output in outputs {
            let bytes = try Array(Data(contentsOf: job.appendingPathComponent(output)))
            total += bytes.count
            let input = String(output.dropFirst("state/output/resize/".count))
            let own = indices[input].map { MisbehavingService.content(of: "file_\($0)") }
            #expect(output.hasPrefix("state/output/resize/") && own == bytes, "\(output) is not its own input's output")
        }
        #expect(total < 1 << 20, "\(total) bytes under output.dir")
        for (input, file) in outcome.files where file.state == "done" {
            #expect(outputs.contains("state/output/resize/\(input)"), "\(input) is done without its output")
        }
        for secret in [Self.secret, Self.token] {
            #expect(!printed.contains(secret) && !outcome.ledgerBytes.containsBytes(of: secret), "the secret or token leaked")
        }
    }
}

extension [UInt8] {
    /// Whether the UTF-8 bytes of `text` occur in these bytes.
    func containsBytes(of text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { start in self[start..<start + needle.count].elementsEqual(needle) }
    }
}
