import AssemblyLine
import Foundation
import SQLiteLedger

/// `assemblyline check RUN_ID|latest|MANIFEST`: the outputs that are missing or changed since the run that made them.
struct CheckCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "List the outputs that are missing or changed since the run that made them.",
        discussion: """
            With a run ID (or latest): the outputs that run downloaded. With a manifest: every output an \
            incremental run of it relies on to skip a file (the files done under its current recipe; each part's, \
            when its state_dir names {partition}). Each \
            output must be on disk with its recorded size, and with --checksum its recorded MD5. Exits 0 when \
            every output is in place, 1 when any is missing or changed (as rclone check does). With a manifest \
            and --batch ID: whether the batch's partitions together took its whole plan, each file once and in \
            its own part (1 when not). Reads the ledgers without changing them.
            """,
        arguments: [ArgumentSpec(name: "target", help: "A run ID, latest, or a manifest file.")],
        options: [OptionSpec(name: "checksum", help: "Compare MD5s too (reads every output)."),
                  OptionSpec(name: "batch", valueName: "id", help: "With a manifest: check that the batch's partitions took its whole plan once."),
                  OptionSpec(name: "state-dir", valueName: "dir",
                             help: "Use this state directory's ledger; with --batch, repeatable, each a directory or a glob.", isRepeating: true),
                  LedgerLocation.options[1]])

    /// What is checked: one run's outputs, or those a manifest's next run would skip on.
    enum Target: Sendable {
        case run(RunID?)
        case manifest(String)
    }

    var target: Target
    var checksum: Bool
    var location: LedgerLocation
    /// `--batch`: the batch and the ledgers of its partitions.
    var batch: (id: BatchID, ledgers: BatchLedgers)?
    var stateDirCount: Int

    init(_ values: ParsedValues) throws {
        let text = values.positional(0) ?? ""
        target = text == "latest" || RunID(text) != nil ? .run(try RunID.argument(text)) : .manifest(text)
        checksum = values.flag("checksum")
        location = LedgerLocation(values)
        stateDirCount = values.options("state-dir").count
        if let batchText = values.option("batch") {
            guard case .manifest(let manifest) = target else { throw UsageError("--batch checks a manifest's plan: give the manifest, not a run") }
            guard let id = BatchID(rawValue: batchText) else { throw UsageError("--batch: expected \(BatchID.expected), found '\(batchText)'") }
            batch = (id, try BatchLedgers(values, manifest: manifest))
        }
    }

    func validate() throws {
        if batch != nil { return }
        if stateDirCount > 1 { throw UsageError("--state-dir is given once, unless with --batch") }
        try location.validate()
        if case .manifest = target, location.manifestOption != nil {
            throw UsageError("check MANIFEST names its manifest already; --manifest is for a run ID")
        }
    }

    func run(_ console: Console) async throws {
        if let batch, case .manifest(let path) = target {
            let manifest = try ConfigFileLoader.manifest(path)
            let coverage = try await batch.ledgers.withEach { try await BatchCoverage.check(manifest, batch: batch.id, in: $0) }
            console.out(coverage.text())
            guard coverage.problems == 0 else { throw CheckFound(count: coverage.problems) }
            return
        }
        let outputs = try await recordedOutputs()
        let check = OutputCheck(checksums: checksum)
        let findings = outputs.flatMap { input, output in check.findings([output]).map { (input, $0) } }
        if !findings.isEmpty {
            console.out(TextTable.render(header: ["STATE", "OUTPUT", "INPUT", "DETAIL"], rows: findings.map { input, finding in
                [finding.problem.kind, finding.output.path, input, finding.problem.description]
            }))
        }
        let missing = findings.filter { $0.1.problem == .missing }.count
        console.line("checked \(outputs.count) \(outputs.count == 1 ? "output" : "outputs")\(checksum ? " with MD5s" : ""): "
            + "\(missing) missing, \(findings.count - missing) changed")
        guard findings.isEmpty else { throw CheckFound(count: findings.count) }
    }

    /// Each recorded output with the input it was made from, in ledger order.
    private func recordedOutputs() async throws -> [(input: String, output: RecordedOutput)] {
        switch target {
        case .manifest(let path):
            let manifest = try ConfigFileLoader.manifest(path)
            var ledgers = location
            if ledgers.stateDirOption == nil { ledgers.manifestOption = path }
            // Each part's done index when its state_dir names {partition}: together, what the parts' next runs skip on.
            var done: [FileIdentity: CompletedFile]?
            let directories = try ledgers.stateDirectories().directories
            for directory in directories {
                let session = RunSession(manifest: manifest, stateDirectory: directory, adapters: RunWiring())
                guard let found = try await session.doneFiles() else { continue }
                done = (done ?? [:]).merging(found) { first, _ in first }
            }
            guard let done else {
                throw CommandError.noLedger(path: "at \(SQLiteLedger.path(inStateDirectory: directories[0]))", hint: "no run has been recorded there")
            }
            return done.sorted { $0.key.path < $1.key.path }.flatMap { identity, file in file.outputs.map { (identity.path, $0) } }
        case .run(let run):
            return try await location.withRun(run) { ledger, id, _ in
                let inputs = Dictionary(uniqueKeysWithValues: try await ledger.files(of: id, shard: nil, state: nil).map { ($0.index, $0.file.relativePath) })
                return try await ledger.currentResults(of: id).compactMap { record -> (String, RecordedOutput)? in
                    guard record.isDownloaded, let path = record.result.outputPath else { return nil }
                    return (record.result.fileIndex.flatMap { inputs[$0] } ?? "", RecordedOutput(path: path, size: record.result.size, md5: record.result.md5))
                }
            }
        }
    }
}
