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
            incremental run of it relies on to skip a file (the files done under its current recipe). Each \
            output must be on disk with its recorded size, and with --checksum its recorded MD5. Exits 0 when \
            every output is in place, 1 when any is missing or changed (as rclone check does). Reads the \
            ledger without changing it.
            """,
        arguments: [ArgumentSpec(name: "target", help: "A run ID, latest, or a manifest file.")],
        options: [OptionSpec(name: "checksum", help: "Compare MD5s too (reads every output).")] + LedgerLocation.options)

    /// What is checked: one run's outputs, or those a manifest's next run would skip on.
    enum Target: Sendable {
        case run(RunID?)
        case manifest(String)
    }

    var target: Target
    var checksum: Bool
    var location: LedgerLocation

    init(_ values: ParsedValues) throws {
        let text = values.positional(0) ?? ""
        target = text == "latest" || RunID(text) != nil ? .run(try RunID.argument(text)) : .manifest(text)
        checksum = values.flag("checksum")
        location = LedgerLocation(values)
    }

    func validate() throws {
        try location.validate()
        if case .manifest = target, location.manifestOption != nil {
            throw UsageError("check MANIFEST names its manifest already; --manifest is for a run ID")
        }
    }

    func run(_ console: Console) async throws {
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
        guard findings.isEmpty else { throw OutputsDiffer(count: findings.count) }
    }

    /// Each recorded output with the input it was made from, in ledger order.
    private func recordedOutputs() async throws -> [(input: String, output: RecordedOutput)] {
        switch target {
        case .manifest(let path):
            let manifest = try ConfigFileLoader.manifest(path)
            let directory = location.stateDirOption.map { PathText.resolve($0, against: FileManager.default.currentDirectoryPath) }
                ?? manifest.stateDir
            let session = RunSession(manifest: manifest, stateDirectory: directory, adapters: RunWiring())
            guard let done = try await session.doneFiles() else {
                throw CommandError.noLedger(path: "at \(SQLiteLedger.path(inStateDirectory: directory))", hint: "no run has been recorded there")
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
