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
            A run that is going (its process holds the run's lock) is sent SIGTERM and stops in order; then each \
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
        let (reader, id, stateDirectory) = try await location.openRun(runID)
        let record: RunRecord
        do {
            record = try await reader.run(id).record
            await reader.close()
        } catch {
            await reader.close()
            throw error
        }
        guard record.state != .finished && record.state != .canceled else {
            return console.line("run \(id) is \(record.state); nothing to cancel")
        }
        let lockPath = RunLock.path(stateDirectory: stateDirectory, manifestName: record.manifestName, manifestPath: record.manifestPath)
        if let pid = RunLock.holder(at: lockPath, of: id) {
            console.line("run \(id): stopping its process \(pid)")
            kill(pid, SIGTERM)
            let clock = ContinuousClock()
            let deadline = clock.now + Self.grace
            while RunLock.holder(at: lockPath, of: id) != nil {
                guard clock.now < deadline else { throw RunLock.Held(path: lockPath, holder: "run \(id), PID \(pid), still going") }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let manifest = try ConfigFileLoader.manifest(record.manifestPath)
        let lock = try RunLock(stateDirectory: stateDirectory, manifest: manifest)
        let environment = try await RunEnvironment.open(manifest, stateDirectory: stateDirectory)
        do {
            lock.record(runID: id)
            let cancelled = try await cancelLiveAssemblies(of: id, environment: environment, console: console)
            try await environment.ledger.updateRunState(id, to: .canceled, at: Date())
            await environment.close()
            console.line("run \(id) canceled: \(cancelled == 1 ? "1 Assembly" : "\(cancelled) Assemblies") cancelled at the endpoint")
        } catch {
            await environment.close()
            throw error
        }
    }

    /// DELETEs every Assembly of the run that was created and has not ended (each shard's open attempt); returns how many.
    private func cancelLiveAssemblies(of run: RunID, environment: RunEnvironment, console: Console) async throws -> Int {
        let client = TransloaditClient(transport: environment.transport, endpoint: environment.endpoint)
        var cancelled = 0
        for shard in try await environment.ledger.shards(of: run) {
            for attempt in try await environment.ledger.attempts(of: run, shard: shard.index)
            where attempt.outcome == .open && attempt.createdAt != nil {
                do {
                    _ = try await client.cancel(url: "\(environment.endpoint)/assemblies/\(attempt.assemblyID)")
                    cancelled += 1
                } catch {
                    console.error("warning: shard \(shard.index): cannot cancel Assembly \(attempt.assemblyID): \(error)\n")
                }
            }
        }
        return cancelled
    }
}
