/// `check`: whether the outputs recorded in the ledger are on disk as they were made.
///
/// Of a run: the outputs it downloaded. Of a manifest: every output an incremental run of it relies on to skip
/// a file (the files done under its current recipe; each part's, when its `state_dir` names `{partition}`).
package struct OutputAudit: Sendable {
    /// Each output checked, with the relative path of the input it was made from (empty when the ledger has none).
    package var outputs: [(input: String, output: RecordedOutput)]
    /// The outputs missing or changed, in the order checked.
    package var findings: [(input: String, finding: OutputCheck.Finding)]

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

    /// The outputs the next run of `manifest` relies on, in the state directories `locator` means, by input path; one
    /// outside its output directory is a finding (``OutputCheck/within(_:)``).
    ///
    /// - Throws: ``LedgerReadError/noLedger(path:hint:)`` when none of them holds a ledger.
    package static func of(_ manifest: Manifest, at locator: LedgerLocator, check: OutputCheck) async throws -> OutputAudit {
        var done: [FileIdentity: CompletedFile]?
        let directories = locator.stateDirectories().directories
        for directory in directories {
            let found = try await locator.store.withExistingLedger(in: directory) { ledger in
                try await ledger?.completedFiles(job: manifest.job, recipeFingerprint: manifest.recipe.fingerprint)
            }
            guard let found else { continue }
            done = (done ?? [:]).merging(found) { first, _ in first }
        }
        guard let done else {
            throw LedgerReadError.noLedger(path: "at \(locator.store.ledgerPath(inStateDirectory: directories[0]))",
                                           hint: "no run has been recorded there")
        }
        let outputs = done.sorted { $0.key.path < $1.key.path }.flatMap { identity, file in file.outputs.map { (identity.path, $0) } }
        return OutputAudit(outputs, check: check.within(manifest.outputDirOfAllParts))
    }
}
