import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger

/// `assemblyline prune --older-than DURATION [--dry-run]`: old runs out of the ledger, and the embedded service's old files.
struct PruneCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete runs older than a duration from the ledger, and the embedded service's old Assemblies.",
        discussion: """
            Deletes every run of the state directory created more than --older-than ago that is not running, \
            with all its rows, and the embedded service's Assemblies (uploads and results) last changed that \
            long ago. A file that only a pruned run did is no longer skipped by the next run. Refused (75) \
            while a run of the state directory holds its lock. A manifest whose state_dir names {partition}: each \
            part's state directory, none while a run of any holds its lock. --dry-run lists what would go and changes nothing.
            """,
        options: [OptionSpec(name: "older-than", valueName: "duration", help: "Prune what is older than this, such as 30d.", isRequired: true),
                  OptionSpec(name: "dry-run", help: "List what would be pruned; change nothing.")] + LedgerLocation.options)

    var olderThan: Duration
    var dryRun: Bool
    var location: LedgerLocation

    init(_ values: ParsedValues) throws {
        // The parser has asked for --older-than already (it is required).
        olderThan = try values.duration("older-than") ?? .zero
        dryRun = values.flag("dry-run")
        location = LedgerLocation(values)
    }

    func validate() throws {
        try location.validate()
    }

    func run(_ console: Console) async throws {
        let directories = try location.stateDirectories().directories
        for stateDirectory in directories {
            if let held = Self.heldLock(in: stateDirectory) {
                throw RunSessionError.locked(path: held, holder: "a run of this state directory is going; prune when it is done")
            }
        }
        let cutoff = Date().addingTimeInterval(-olderThan.timeInterval)
        for stateDirectory in directories { try await prune(stateDirectory, before: cutoff, console) }
    }

    /// Prunes one state directory's ledger and embedded service of what is older than `cutoff`, and says what went.
    private func prune(_ stateDirectory: String, before cutoff: Date, _ console: Console) async throws {
        var runs: [RunRecord] = []
        let path = SQLiteLedger.path(inStateDirectory: stateDirectory)
        if FileManager.default.fileExists(atPath: path) {
            runs = try await SQLiteLedger.with(path: path) { [dryRun] in try await $0.pruneRuns(createdBefore: cutoff, dryRun: dryRun) }
        } else {
            console.line("no ledger in \(stateDirectory) (no \(path)): no runs to prune; is it the state directory you meant "
                + "(--state-dir DIR, or --manifest FILE for the manifest's)?")
        }
        let assemblies = Self.oldAssemblies(in: "\(stateDirectory)/embedded-service/assemblies", before: cutoff)
        if !dryRun {
            for directory in assemblies { try? FileManager.default.removeItem(atPath: directory) }
        }
        for run in runs { console.line("\(dryRun ? "would prune" : "pruned") run \(run.id) (\(run.manifestName), \(run.state))") }
        console.line("\(dryRun ? "would prune" : "pruned") \(CountText.of(runs.count, "run")) and "
            + "\(assemblies.count == 1 ? "1 embedded Assembly" : "\(assemblies.count) embedded Assemblies") "
            + "older than \(ConfigUnits.formatDuration(olderThan)) in \(stateDirectory)")
    }

    /// A run lock of the state directory that a process holds, if any.
    private static func heldLock(in stateDirectory: String) -> String? {
        let folder = "\(stateDirectory)/locks"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".lock") {
            if RunLock.isHeld("\(folder)/\(name)") { return "\(folder)/\(name)" }
        }
        return nil
    }

    /// The embedded service's Assembly directories whose record last changed before `cutoff`.
    private static func oldAssemblies(in root: String, before cutoff: Date) -> [String] {
        let manager = FileManager.default
        return ((try? manager.contentsOfDirectory(atPath: root)) ?? []).sorted().compactMap { name in
            guard AssemblyID(name) != nil,
                  let modified = (try? manager.attributesOfItem(atPath: "\(root)/\(name)/assembly.json"))?[.modificationDate] as? Date,
                  modified < cutoff else { return nil }
            return "\(root)/\(name)"
        }
    }
}
