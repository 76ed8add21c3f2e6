import AssemblyLine
import Foundation
import SQLiteLedger
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `check`, `prune` and `cancel` as use cases in-process, on a real ledger and the manual clock.
@Suite struct UpkeepUseCaseTests {
    static let store = SQLiteLedgerStore()

    @Test func anAuditListsTheOutputsThatAreMissingOrChangedOfARunAndOfAManifest() async throws {
        let harness = try SessionHarness()
        let outcome = try await harness.run()
        try FileManager.default.removeItem(atPath: "\(harness.outputDirectory)/a.txt")
        try Data("longer than it was\n".utf8).write(to: URL(fileURLWithPath: "\(harness.outputDirectory)/c.txt"))
        let locator = LedgerLocator(scope: .stateDirectory(harness.stateDirectory), store: Self.store)
        let check = OutputCheck(checksums: nil)

        let ofRun = try await OutputAudit.of(run: outcome.runID, at: locator, check: check)
        let ofManifest = try await OutputAudit.of(try harness.manifest(), at: locator, check: check, remote: harness.remoteInputs)

        // A run names its inputs by their relative paths, the done index by their paths.
        for (audit, input) in [(ofRun, { (name: String) in name }), (ofManifest, { harness.directory.file("in/\($0)") })] {
            #expect(Set(audit.outputs.map(\.input)) == Set(["a.txt", "b.txt", "c.txt"].map(input)))
            #expect(audit.findings.map(\.input).sorted() == ["a.txt", "c.txt"].map(input) && audit.missing == 1)
            #expect(audit.findings.first { $0.input == input("c.txt") }?.finding.problem == .resized(recorded: 20, found: 19))
        }
        let nowhere = LedgerLocator(scope: .stateDirectory(harness.directory.file("none")), store: Self.store)
        await #expect(throws: LedgerReadError.self) { _ = try await OutputAudit.of(try harness.manifest(), at: nowhere, check: check, remote: harness.remoteInputs) }
    }

    @Test func pruneTakesTheRunsOlderThanTheCutoffOnlyAndADryRunChangesNothing() async throws {
        let harness = try SessionHarness()
        let old = try await harness.run()
        try await harness.clock.sleep(for: .seconds(2 * 86_400))
        let recent = try await harness.run(force: true)
        let embedded = RecordingEmbeddedAssemblies(stored: ["\(harness.stateDirectory)/embedded-service/assemblies/x"])
        let prune = LedgerPrune(store: Self.store, embedded: embedded, clock: harness.clock)

        var told: [LedgerPrune.Outcome] = []
        try await prune.prune([harness.stateDirectory], olderThan: .seconds(86_400), keepLast: 1, dryRun: true) { told.append($0) }
        #expect(told.map { $0.runs.map(\.id) } == [[old.runID]] && told.first?.hadLedger == true && embedded.removed.isEmpty)
        #expect(embedded.cutoffs == [harness.clock.now.addingTimeInterval(-86_400)], "the cutoff is the clock's now less the age")
        #expect(try await harness.ledger { try await $0.recentRuns(limit: 9) }.count == 2, "a dry run changes nothing")

        told = []
        try await prune.prune([harness.stateDirectory, harness.directory.file("none")], olderThan: .seconds(86_400), keepLast: 1, dryRun: false) { told.append($0) }
        #expect(told.map(\.hadLedger) == [true, false] && told[0].runs.map(\.id) == [old.runID])
        #expect(embedded.removed == ["\(harness.stateDirectory)/embedded-service/assemblies/x"])
        #expect(try await harness.ledger { try await $0.recentRuns(limit: 9) }.map(\.id) == [recent.runID])
    }

    @Test func pruneKeepsTheNewestRunOfAJobAndTheDoneFilesItReliesOnAndSaysWhatItForgets() async throws {
        let harness = try SessionHarness()
        let only = try await harness.run()
        try await harness.clock.sleep(for: .seconds(2 * 86_400))
        let prune = LedgerPrune(store: Self.store, embedded: RecordingEmbeddedAssemblies(stored: []), clock: harness.clock)

        var told: [LedgerPrune.Outcome] = []
        try await prune.prune([harness.stateDirectory], olderThan: .seconds(1), keepLast: 1, dryRun: false) { told.append($0) }
        #expect(told.first?.runs.isEmpty == true && told.first?.doneFiles == 0, "the newest run of its job stays, and what it did")
        #expect(try await harness.ledger { try await $0.recentRuns(limit: 9) }.map(\.id) == [only.runID])
        #expect(try await harness.session().forecast(force: false, checksums: false).incremental.skippedCount == 3, "the next night sends nothing")

        // A second night that made every file again: the first night goes, what the second relies on stays.
        _ = try await harness.run(force: true)
        try await harness.clock.sleep(for: .seconds(2 * 86_400))
        told = []
        try await prune.prune([harness.stateDirectory], olderThan: .seconds(86_400), keepLast: 1, dryRun: true) { told.append($0) }
        #expect(told.first?.runs.map(\.id) == [only.runID] && told.first?.doneFiles == 0, "the forced night redid all three: still confirmed")
        try await prune.prune([harness.stateDirectory], olderThan: .seconds(1), keepLast: 2, dryRun: true) { told.append($0) }
        #expect(told.last?.runs.isEmpty == true, "--keep-last 2 keeps both")
    }

    @Test func pruneRecordsARunWhoseProcessIsGoneInterruptedAndKeepsItAsItsJobsNewest() async throws {
        let harness = try SessionHarness()
        let (record, _) = try await Self.runWithAnOpenAssembly(harness)
        #expect(record.seen(in: harness.stateDirectory).state == .interrupted, "no process holds its lock")
        try await harness.clock.sleep(for: .seconds(2 * 86_400))
        let prune = LedgerPrune(store: Self.store, embedded: RecordingEmbeddedAssemblies(stored: []), clock: harness.clock)

        try await prune.prune([harness.stateDirectory], olderThan: .seconds(1), keepLast: 1, dryRun: false) { _ in }

        let kept = try await harness.ledger { try await $0.run(record.id).record }
        #expect(kept.state == .interrupted, "recorded, and kept for the next run to take over")
    }

    @Test func pruneIsRefusedWhileARunHoldsTheLockOfAStateDirectory() async throws {
        let harness = try SessionHarness()
        let outcome = try await harness.run()
        let record = outcome.summary.record
        let lock = try HeldLock(RunLock.path(stateDirectory: harness.stateDirectory, of: record),
                                run: outcome.runID)
        defer { lock.release() }
        let prune = LedgerPrune(store: Self.store, embedded: RecordingEmbeddedAssemblies(stored: []), clock: harness.clock)

        await #expect(throws: RunSessionError.locked(path: lock.path, holder: "a run of this state directory is going; prune when it is done")) {
            try await prune.prune([harness.stateDirectory], olderThan: .zero, keepLast: 1, dryRun: false) { _ in }
        }
    }

    @Test func cancelRecordsTheRunCanceledAsksItsProcessToStopAndCancelsItsOpenAssembly() async throws {
        let harness = try SessionHarness()
        let (record, open) = try await Self.runWithAnOpenAssembly(harness)
        let lock = try HeldLock(RunLock.path(stateDirectory: harness.stateDirectory, of: record),
                                run: record.id)
        let stopping = Recorder<Int32>()
        let cancel = RunCancel(store: Self.store, clock: harness.clock, grace: .seconds(60)) { [store = Self.store, directory = harness.stateDirectory] pid in
            // The process, asked to stop, finds its run recorded canceled and lets go of its lock.
            let state = try? RunCancelTestState.state(of: record.id, in: directory, store: store)
            #expect(state == .canceled && pid == getpid())
            lock.release()
        }

        let outcome = try await cancel.cancel(record, in: harness.stateDirectory, stopping: { stopping.append($0) }) { _ in try harness.session() }

        guard case let .canceled(cancelled, refused) = outcome else {
            Issue.record("not canceled: \(outcome)")
            return
        }
        #expect(cancelled == 1 && refused.isEmpty && harness.service.canceled == [open.rawValue])
        #expect(stopping.all == [getpid()])
        #expect(try await harness.ledger { try await $0.run(record.id).record.state } == .canceled)
        guard case .alreadyEnded(.canceled) = try await cancel.cancel(try await harness.ledger { try await $0.run(record.id).record },
                                                                   in: harness.stateDirectory, stopping: { _ in }, session: { _ in try harness.session() })
        else {
            Issue.record("a canceled run was canceled again")
            return
        }
    }

    @Test func cancelGivesUpWhenTheProcessKeepsItsLockPastTheGrace() async throws {
        let harness = try SessionHarness()
        let (record, _) = try await Self.runWithAnOpenAssembly(harness)
        let lock = try HeldLock(RunLock.path(stateDirectory: harness.stateDirectory, of: record),
                                run: record.id)
        defer { lock.release() }
        let cancel = RunCancel(store: Self.store, clock: harness.clock, grace: .seconds(5)) { _ in }
        let start = harness.clock.elapsed

        await #expect(throws: RunSessionError.locked(path: lock.path, holder: "run \(record.id), PID \(getpid()), still going")) {
            _ = try await cancel.cancel(record, in: harness.stateDirectory, stopping: { _ in }) { _ in try harness.session() }
        }
        #expect(harness.clock.elapsed - start >= .seconds(5) && harness.clock.elapsed - start < .seconds(6), "it waited the grace on the clock")
        #expect(harness.service.canceled.isEmpty, "no Assembly is cancelled while the process may still use it")
    }

    /// A running run of the harness's manifest whose shard 0 has an Assembly created and not ended.
    static func runWithAnOpenAssembly(_ harness: SessionHarness) async throws -> (RunRecord, AssemblyID) {
        let manifest = try harness.manifest()
        let run = try #require(RunID("20990101T000000Z-0c0c0c"))
        let open = try #require(AssemblyID("0123456789abcdef0123456789abcdef"))
        let record = try await SQLiteLedger.with(stateDirectory: harness.stateDirectory) { ledger in
            let record = try await ledger.createRun(NewRun(id: run, manifestPath: manifest.file, manifestName: manifest.name,
                                                           recipeFingerprint: manifest.recipe.fingerprint, plan: try await manifest.planInputs(remote: harness.remoteInputs).plan,
                                                           createdAt: harness.clock.now))
            try await ledger.recordAttempt(run, shard: 0, assemblyID: open, at: harness.clock.now)
            try await ledger.transition(run, shard: 0, .signed, at: harness.clock.now)
            try await ledger.transition(run, shard: 0, .created(assemblyURL: "\(SessionHarness.endpoint)/assemblies/\(open)", tusURL: nil),
                                        at: harness.clock.now)
            return record
        }
        return (record, open)
    }
}

/// A run's state read on the spot, from a closure that cannot await.
enum RunCancelTestState {
    static func state(of run: RunID, in directory: String, store: SQLiteLedgerStore) throws -> RunState? {
        let connection = try SQLiteConnection(path: store.ledgerPath(inStateDirectory: directory), mode: .readOnly)
        return try connection.firstRow("SELECT state FROM runs WHERE id = ?", [.text(run.rawValue)]) { RunState(rawValue: $0.text(0) ?? "") } ?? nil
    }
}

/// A run lock held in this process as a run's own process holds it: `flock`ed, naming the run and this PID.
final class HeldLock: Sendable {
    let path: String
    private let descriptor = Mutex<Int32>(-1)

    init(_ path: String, run: RunID) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(opened >= 0 && flock(opened, LOCK_EX | LOCK_NB) == 0)
        let text = "run \(run), PID \(getpid())\n"
        _ = text.withCString { pwrite(opened, $0, strlen($0), 0) }
        descriptor.withLock { $0 = opened }
    }

    /// Lets go of the lock, as the process does when it ends.
    func release() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    deinit { release() }
}

/// The embedded service's Assemblies as `prune` sees them: what it asked for and removed.
final class RecordingEmbeddedAssemblies: EmbeddedAssemblies {
    private let found: [String]
    private let asked = Recorder<Date>()
    private let gone = Recorder<String>()

    init(stored: [String]) {
        found = stored
    }

    var cutoffs: [Date] { asked.all }
    var removed: [String] { gone.all }

    func stored(in stateDirectory: String, lastChangedBefore cutoff: Date) -> [String] {
        asked.append(cutoff)
        return stateDirectory.hasSuffix("/state") ? found : []
    }

    func remove(_ path: String) {
        gone.append(path)
    }
}
