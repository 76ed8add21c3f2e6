import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// Every statement the pipeline and the reports run is bounded by an index to the rows it is about (issue 22).
///
/// The statements are those the ledger really ran (SQLite's trace): the use case's nights in-process
/// (a failed file, a known bad one, a zip, a nightly skip, a resume), then what `report`, `runs`,
/// `check` and `prune` read, and a tus shard driven by hand on a run of 20,000 files in the same
/// ledger. Each is explained (`EXPLAIN QUERY PLAN`) on that ledger: a scan of a table that grows with
/// the files fails, and so does, in a statement about one shard or one file, a search whose index
/// keys name neither (by the run alone, or by the run and a state).
@Suite struct LedgerQueryPlanTests {
    /// The tables whose rows grow with the files of a night.
    static let growing: Set<String> = ["files", "results", "result_inputs", "attempts", "shards", "events", "uploads", "done_files",
                                       "done_outputs", "bad_files"]

    @Test func everyStatementOfThePipelineAndTheReportsUsesAnIndexBoundedToItsRows() async throws {
        let harness = try SessionHarness(files: ["a.txt": "first\n", "b.txt": "second\n", "c.txt": "third\n", "d.txt": "fourth\n"])
        harness.service.bundle()
        harness.service.fail("b.txt")
        let big = try await Self.bigRun(in: harness)

        let first = try await harness.run()
        _ = try await harness.run()
        _ = try await harness.run(retryFailed: true)
        let stop = RunStop()
        stop.request(.signal(15))
        let stopped = try await harness.run(force: true, stop: stop)
        _ = try await harness.resume(stopped.runID)
        // A night the Template breaks, resumed after the mend: its shards replayed; then a recipe change accepted.
        harness.service.breakAssemblies("INVALID_STEP_PARAMETER")
        let broken = try await harness.run(force: true)
        harness.service.breakAssemblies(nil)
        _ = try await harness.resume(broken.runID)
        #expect(!harness.service.replayedParents.isEmpty, "the trace saw a replay's statements")
        try harness.writeManifest(recipe: "template: {id: copy, fields: {size: 2}}")
        try await harness.clock.sleep(for: .seconds(60))
        _ = try await harness.run(acceptsRecipe: true)
        try await Self.readLikeTheCommands(harness, runs: [first.runID, big, broken.runID])

        let statements = Set(harness.statements.all)
        #expect(statements.count > 40, "the trace saw the pipeline's statements: \(statements.count)")
        let explained = try SQLiteConnection(path: SQLiteLedger.path(inStateDirectory: harness.stateDirectory), mode: .readOnly)
        var unbounded: [String] = []
        for sql in statements.sorted() {
            let plan = try explained.rows("EXPLAIN QUERY PLAN " + sql) { $0.text(3) ?? "" }
            if let problem = Self.problem(with: plan, of: sql) { unbounded.append("\(problem)\n  in: \(sql)") }
        }
        #expect(unbounded.isEmpty, "\(unbounded.joined(separator: "\n"))")
    }

    /// A plan's step that reads a growing table's rows beyond the statement's scope, if any.
    static func problem(with plan: [String], of sql: String) -> String? {
        let tables = tablesByName(in: sql)
        let aboutShardOrFile = sql.contains("shard_index = ?") || sql.contains("file_index = ?")
        for step in plan {
            let words = step.split(separator: " ")
            guard words.count >= 2, let table = tables[String(words[1])], growing.contains(table) else { continue }
            if words[0] == "SCAN" { return "\(step): every row of \(table)" }
            if words[0] == "SEARCH", aboutShardOrFile, Set(keys(of: step)).isDisjoint(with: narrowing) {
                return "\(step): \(table) rows of the whole run, for one shard's or one file's"
            }
        }
        return nil
    }

    /// The columns that bound a search to one shard's or one file's rows.
    static let narrowing: Set<String> = ["shard_index", "file_index", "rowid", "id", "result_id", "done_id", "path"]

    /// The columns a plan's search step looks up by: `run_id` and `state` of `… (run_id=? AND state=?)`.
    static func keys(of step: String) -> [String] {
        guard let open = step.lastIndex(of: "("), step.hasSuffix(")") else { return [] }
        return step[step.index(after: open)..<step.index(before: step.endIndex)].components(separatedBy: " AND ").map { key in
            String(key.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }
    }

    /// The tables a statement names, by the name or alias its plan uses.
    static func tablesByName(in sql: String) -> [String: String] {
        var tables: [String: String] = [:]
        for match in sql.matches(of: /(?i)(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/) {
            let table = String(match.1)
            tables[table] = table
            if let alias = match.2.map(String.init), !["WHERE", "SET", "ON", "CROSS", "LEFT", "JOIN", "ORDER", "GROUP", "VALUES", "SELECT",
                                                       "USING", "INDEXED", "AND"].contains(alias.uppercased()) {
                tables[alias] = table
            }
        }
        return tables
    }

    /// A run of 20,000 files of another manifest, in shards of 50, whose shard 0 is driven over tus to its end by hand.
    static func bigRun(in harness: SessionHarness) async throws -> RunID {
        let files = (0..<20_000).map { index in
            PlannedFile(path: "/data/big/f-\(index).txt", relativePath: "f-\(index).txt", size: 10, modifiedNanoseconds: Int64(index))
        }
        let plan = Plan(sharding: files, limits: ShardLimits(maxFiles: 50))
        let id = RunID.generate(at: harness.clock.now)
        let now = harness.clock.now
        return try await SQLiteLedger.with(stateDirectory: harness.stateDirectory) { [statements = harness.statements] ledger in
            try await ledger.traceStatements { statements.append($0) }
            try await ledger.createRun(NewRun(id: id, manifestPath: "/etc/big.yaml", manifestName: "big", recipeFingerprint: "sha256:big",
                                              plan: plan, createdAt: now))
            let attempt = try await ledger.recordAttempt(id, shard: 0, assemblyID: .generate(), at: now)
            try await ledger.transition(id, shard: 0, .signed, at: now)
            try await ledger.transition(id, shard: 0, .created(assemblyURL: "https://api2.test/assemblies/a", tusURL: "https://api2.test/resumable/"),
                                        at: now)
            for file in try await ledger.files(of: id, shard: 0, state: nil) {
                try await ledger.recordUpload(id, shard: 0, attempt: attempt.number, file: file.index, url: "https://api2.test/resumable/\(file.index)",
                                              length: 10, at: now)
                try await ledger.recordUploadOffset(id, shard: 0, attempt: attempt.number, file: file.index,
                                                    url: "https://api2.test/resumable/\(file.index)", offset: 10, at: now)
            }
            _ = try await ledger.uploads(of: id, shard: 0)
            try await ledger.recordStatusURL(id, shard: 0, url: "https://api2-b.test/assemblies/a", at: now)
            try await ledger.transition(id, shard: 0, .uploaded, at: now)
            try await ledger.failFiles(id, files: [1], reason: FailureReason(code: "IMAGE_RESIZE_ERROR", message: "bad", isRetryable: false),
                                       knownBad: true, at: now)
            return id
        }
    }

    /// What `report` (every format), `runs`, `check` and `prune --dry-run` read of these runs: the ledger's reads one by one, then the use cases.
    static func readLikeTheCommands(_ harness: SessionHarness, runs: [RunID]) async throws {
        try await SQLiteLedger.with(stateDirectory: harness.stateDirectory) { [statements = harness.statements] ledger in
            try await ledger.traceStatements { statements.append($0) }
            for run in runs {
                _ = try await ledger.run(run)
                _ = try await ledger.shards(of: run)
                _ = try await ledger.statistics(of: run)
                _ = try await ledger.currentResults(of: run)
                if let last = try await ledger.shards(of: run).last?.index {
                    _ = try await ledger.reportedFiles(of: run, shards: 0...min(last, 40))
                }
                _ = try await ledger.reportedFiles(of: run, shards: nil)
                _ = try await ledger.events(of: run, shard: nil)
                _ = try await ledger.events(of: run, shard: 0)
                for state in [nil] + FileState.allCases { _ = try await ledger.files(of: run, shard: nil, state: state) }
            }
            _ = try await ledger.recentRuns(limit: 20, matching: RunFilter())
            _ = try await ledger.latestRun(matching: RunFilter(manifestPath: "/etc/big.yaml"))
            _ = try await ledger.prune(createdBefore: Date(timeIntervalSince1970: 0), keepingLast: 1, gone: [], dryRun: true)
        }
        // The read use cases as the commands call them, through a store that traces every ledger it opens.
        let store = SQLiteLedgerStore { [statements = harness.statements] in statements.append($0) }
        let locator = LedgerLocator(scope: .stateDirectory(harness.stateDirectory), store: store)
        for run in runs {
            try await locator.withRun(run) { ledger, id, directory in
                let report = try await RunReport.read(id, from: ledger, in: directory, files: .all, results: true)
                _ = try await RunDetail.read(report, from: ledger, files: 1_000)
                try await FilePages.everyFile(ledger, id, shards: report.shards).forEach { _ in }
            }
            _ = try await OutputAudit.of(run: run, at: locator, check: OutputCheck(checksums: nil))
        }
        _ = try await RunListing.recent(limit: 20, state: .failed, since: .distantPast, at: locator)
        _ = try await LedgerSet(patterns: [harness.stateDirectory], store: store).withEach { opened in
            try await RunHistory.read(since: .distantPast, job: nil, from: opened)
        }
        _ = try await OutputAudit.of(try harness.manifest(), at: locator, check: OutputCheck(checksums: nil), remote: harness.remoteInputs)
    }
}
