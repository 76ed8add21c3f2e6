import AssemblyLine

/// `assemblyline check RUN_ID|latest|MANIFEST`: the outputs that are missing or changed since the run that made them.
struct CheckCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "List the outputs that are missing or changed since the run that made them.",
        discussion: """
            With a run ID (or latest): the outputs that run downloaded. With a manifest: every output an \
            incremental run of it relies on to skip a file (the files done under its current recipe, as each input \
            is now; each part's, when its state_dir names {partition}), and, without failing, the outputs of inputs \
            deleted since they were made, orphaned (prune --orphans removes them). Each \
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
                  LedgerOptions.specs[1]])

    /// What is checked: one run's outputs, or those a manifest's next run would skip on.
    enum Target: Sendable {
        case run(RunID?)
        case manifest(String)
    }

    var target: Target
    var checksum: Bool
    var ledgers: LedgerOptions
    /// `--batch`: the batch and the ledgers of its partitions.
    var batch: (id: BatchID, ledgers: LedgerSet)?
    var stateDirCount: Int

    init(_ values: ParsedValues) throws {
        let text = values.positional(0) ?? ""
        target = text == "latest" || RunID(text) != nil ? .run(try RunID.argument(text)) : .manifest(text)
        checksum = values.flag("checksum")
        ledgers = LedgerOptions(values)
        stateDirCount = values.options("state-dir").count
        if let batchText = values.option("batch") {
            guard case .manifest(let manifest) = target else { throw UsageError("--batch checks a manifest's plan: give the manifest, not a run") }
            guard let id = BatchID(rawValue: batchText) else { throw UsageError("--batch: expected \(BatchID.expected), found '\(batchText)'") }
            batch = (id, try LedgerPatterns.ledgers(values, manifest: manifest))
        }
    }

    func validate() throws {
        if batch != nil { return }
        if stateDirCount > 1 { throw UsageError("--state-dir is given once, unless with --batch") }
        try ledgers.validate()
        if case .manifest = target, ledgers.manifest != nil {
            throw UsageError("check MANIFEST names its manifest already; --manifest is for a run ID")
        }
    }

    func run(_ context: CommandContext) async throws {
        let console = context.console
        if let batch, case .manifest(let path) = target {
            let manifest = try ConfigFileLoader.manifest(path)
            let coverage = try await batch.ledgers.withEach { try await BatchCoverage.check(manifest, batch: batch.id, in: $0, remote: context.remoteInputs)
            }
            console.out(CoverageText.text(coverage))
            guard coverage.problems == 0 else { throw CheckFound(count: coverage.problems) }
            return
        }
        let check = OutputCheck(checksums: checksum)
        let audit: OutputAudit
        switch target {
        case .manifest(let path):
            let manifest = try ConfigFileLoader.manifest(path)
            audit = try await OutputAudit.of(manifest, at: try ledgers.locator(for: manifest), check: check, remote: context.remoteInputs)
        case .run(let run):
            audit = try await OutputAudit.of(run: run, at: try ledgers.locator(), check: check)
        }
        let orphaned = audit.orphans.flatMap { orphan in orphan.outputs.map { (orphan.input, $0.output, $0.problem) } }
        if !audit.findings.isEmpty || !orphaned.isEmpty {
            let found = audit.findings.map { input, finding in [finding.problem.kind, finding.output.path, input, finding.problem.description] }
            let orphans = orphaned.map { input, output, problem in
                ["orphaned", output.path, input, "its input is gone" + (problem.map { "; \($0)" } ?? "")]
            }
            console.out(TextTable.render(header: ["STATE", "OUTPUT", "INPUT", "DETAIL"], rows: found + orphans))
        }
        let checked = audit.outputs.count
        console.line("checked \(checked) \(checked == 1 ? "output" : "outputs")\(checksum ? " with MD5s" : ""): "
            + "\(audit.missing) missing, \(audit.findings.count - audit.missing) changed"
            + (audit.orphans.isEmpty ? "" : "; \(CountText.of(audit.orphans.count, "done file")) whose input is gone, "
                + "\(CountText.of(orphaned.count, "output")) orphaned (prune --orphans --manifest MANIFEST removes them)"))
        guard audit.findings.isEmpty else { throw CheckFound(count: audit.findings.count) }
    }
}
