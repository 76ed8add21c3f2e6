import AssemblyLine
import Foundation
import SQLiteLedger
#if canImport(Glibc)
import Glibc
#endif

/// `assemblyline cancel RUN_ID|latest`: stops a run and cancels its live Assemblies; the run ends `canceled`.
struct CancelCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Stop a run and cancel the Assemblies it left running; the run ends canceled.",
        discussion: """
            A run that is going (its process holds the run's lock) is recorded canceled, then sent SIGTERM: it \
            stops in order and exits 3 (canceled), not 2 (interrupted). Then each \
            Assembly of the run that may still be running is cancelled with DELETE at the endpoint, so that it \
            stops costing and counting against the account, and the run is recorded canceled (final: resume \
            refuses it). Exits 0 when done, 75 when the run's process does not stop within \
            \(Int(Self.grace.components.seconds)) s or another run of the manifest holds the lock.
            """,
        arguments: [ArgumentSpec(name: "run", help: "A run ID, or latest.")],
        options: LedgerLocation.options)

    /// How long the run's process has to stop after SIGTERM.
    static let grace: Duration = .seconds(60)

    var runID: RunID?
    var location: LedgerLocation

    init(_ values: ParsedValues) throws {
        runID = try RunID.argument(values.positional(0) ?? "")
        location = LedgerLocation(values)
    }

    func validate() throws {
        try location.validate()
    }

    func run(_ console: Console) async throws {
        let (record, stateDirectory) = try await location.withRun(runID) { reader, id, stateDirectory in
            (try await reader.run(id).record, stateDirectory)
        }
        let id = record.id
        guard record.state != .finished && record.state != .canceled else {
            return console.line("run \(id) is \(record.state); nothing to cancel")
        }
        let lockPath = RunLock.path(stateDirectory: stateDirectory, manifestName: record.manifestName, manifestPath: record.manifestPath)
        if let pid = RunLock.holder(at: lockPath, of: id) {
            console.line("run \(id): stopping its process \(pid)")
            try await SQLiteLedger.with(path: SQLiteLedger.path(inStateDirectory: stateDirectory)) { ledger in
                _ = try await ledger.endRun(id, as: .canceled, at: Date())
            }
            kill(pid, SIGTERM)
            let clock = ContinuousClock()
            let deadline = clock.now + Self.grace
            while RunLock.holder(at: lockPath, of: id) != nil {
                guard clock.now < deadline else { throw RunSessionError.locked(path: lockPath, holder: "run \(id), PID \(pid), still going") }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let manifest = try ConfigFileLoader.manifest(record.manifestPath)
        let session = RunSession(manifest: manifest, stateDirectory: stateDirectory, adapters: RunWiring())
        let (cancelled, refused) = try await session.cancel(id)
        for refusal in refused {
            console.error("warning: shard \(refusal.shard): cannot cancel Assembly \(refusal.assemblyID): \(refusal.error)\n")
        }
        console.line("run \(id) canceled: \(cancelled == 1 ? "1 Assembly" : "\(cancelled) Assemblies") cancelled at the endpoint")
    }
}
