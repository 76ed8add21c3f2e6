/// `check`: whether the outputs recorded in the ledger are on disk as they were made.
///
/// Of a run: the outputs it downloaded. Of a manifest: every output an incremental run of it relies on to skip
/// a file (the files done under its current recipe, as each input is now; each part's, when its `state_dir` names
/// `{partition}`), and the outputs of inputs gone since, orphaned.
package struct OutputAudit: Sendable {
    /// Each output checked, with the relative path of the input it was made from (empty when the ledger has none).
    package var outputs: [(input: String, output: RecordedOutput)]
    /// The outputs missing or changed, in the order checked.
    package var findings: [(input: String, finding: OutputCheck.Finding)]
    /// Of a manifest: the done files whose input is gone, with their outputs (none a current input's too).
    package var orphans: [OrphanedFile] = []

    /// How many findings are of outputs not on disk.
    package var missing: Int { findings.filter { $0.finding.problem == .missing }.count }

    init(_ outputs: [(input: String, output: RecordedOutput)], check: OutputCheck) {
        self.outputs = outputs
        findings = outputs.flatMap { input, output in check.findings([output]).map { (input, $0) } }
    }

    /// The outputs `run` (nil: the newest run) downloaded, in ledger order.
    package static func of(run: RunID?, at locator: LedgerLocator, check: OutputCheck) async throws -> OutputAudit {
        let outputs = try await locator.withRun(run) { ledger, id, _ in
            let inputs = Dictionary(uniqueKeysWithValues: try await ledger.files(of: id).map { ($0.index, $0.file.relativePath) })
            return try await ledger.currentResults(of: id).compactMap { record -> (input: String, output: RecordedOutput)? in
                guard record.isDownloaded, let path = record.result.outputPath else { return nil }
                return (record.result.fileIndex.flatMap { inputs[$0] } ?? "", RecordedOutput(path: path, size: record.result.size, md5: record.result.md5))
            }
        }
        return OutputAudit(outputs, check: check)
    }

    /// The outputs the next run of `manifest` relies on, in the state directories `locator` means, by input path: those of
    /// each input as it is now on disk or in its bucket (read through `remote`; an input edited since is made again, whatever its old outputs are); one outside its
    /// output directory is a finding (``OutputCheck/within(_:)``). The done files whose input is no longer one of the
    /// manifest's (deleted, or matched no more) are its ``orphans``.
    ///
    /// - Throws: ``LedgerReadError/noLedger(path:hint:)`` when none of them holds a ledger; the plan's errors (an inputs
    ///   directory that is missing, or in which nothing matches, is never taken for every input deleted).
    package static func of(_ manifest: Manifest, at locator: LedgerLocator, check: OutputCheck,
                           remote: any RemoteInputAccess) async throws -> OutputAudit {
        var done: [(stateDirectory: String, identity: FileIdentity, file: CompletedFile)]?
        var seen = Set<FileIdentity>()
        let directories = locator.stateDirectories().directories
        for directory in directories {
            let found = try await locator.store.withExistingLedger(in: directory) { ledger in
                try await ledger?.completedFiles(job: manifest.job, recipeFingerprint: manifest.recipe.fingerprint)
            }
            guard let found else { continue }
            done = (done ?? []) + found.filter { seen.insert($0.key).inserted }.map { (directory, $0.key, $0.value) }
        }
        guard let done else {
            throw LedgerReadError.noLedger(path: "at \(locator.store.ledgerPath(inStateDirectory: directories[0]))",
                                           hint: "no run has been recorded there")
        }
        var inputs: [String: FileIdentity] = [:]
        for file in try await manifest.findInputs(remote: remote).plan.shards.lazy.flatMap(\.files) { inputs[file.path] = FileIdentity(file) }
        let sorted = done.sorted { $0.identity.path < $1.identity.path }
        let relied = sorted.filter { inputs[$0.identity.path] == $0.identity }
        let check = check.within(manifest.outputDirOfAllParts)
        var audit = OutputAudit(relied.flatMap { entry in entry.file.outputs.map { (entry.identity.path, $0) } }, check: check)
        let kept = Set(relied.lazy.flatMap(\.file.outputs).map(\.path))
        audit.orphans = sorted.filter { inputs[$0.identity.path] == nil }.map { entry in
            let outputs = entry.file.outputs.filter { !kept.contains($0.path) }
            return OrphanedFile(stateDirectory: entry.stateDirectory, entry: entry.file.entry, input: entry.identity.path,
                                outputs: outputs.map { ($0, check.findings([$0]).first?.problem) })
        }
        return audit
    }
}
