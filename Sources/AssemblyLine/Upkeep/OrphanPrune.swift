import Foundation

/// `prune --orphans`: the outputs of inputs gone from a manifest off the disk, and their files out of the done index.
///
/// As `rclone sync` deletes what the source no longer has, but only what AssemblyLine made: an output is removed when
/// it is on disk as it was recorded (its size; its MD5 with checksums) and under the manifest's output directory; one
/// changed since, or elsewhere, is left and said. A file's entry goes unless removing one of its outputs failed, so that
/// the next `check` finds that one again. Refused while a run of any of the
/// manifest's state directories holds its lock; an inputs directory that is missing or matches nothing refuses it too
/// (``OutputAudit/of(_:at:check:remote:)``), so an unmounted share never reads as every input deleted.
package struct OrphanPrune: Sendable {
    /// What went, or in a dry run would go.
    package struct Outcome: Sendable {
        /// The orphaned files whose entries went.
        package var files: Int
        /// The outputs removed from disk.
        package var removed: [String]
        /// The outputs left on disk, with why.
        package var left: [(path: String, reason: String)]
    }

    package var locator: LedgerLocator

    package init(locator: LedgerLocator) {
        self.locator = locator
    }

    /// Removes the orphans of `manifest`; with `dryRun`, changes nothing and tells what would go.
    ///
    /// - Throws: ``RunSessionError/locked(path:holder:)`` before anything is read when a run holds a lock.
    package func prune(_ manifest: Manifest, check: OutputCheck, dryRun: Bool,
                       remote: any RemoteInputAccess) async throws -> Outcome {
        for directory in locator.stateDirectories().directories {
            if let held = RunLock.heldLock(inStateDirectory: directory) {
                throw RunSessionError.locked(path: held, holder: "a run of this manifest is going; prune when it is done")
            }
        }
        let audit = try await OutputAudit.of(manifest, at: locator, check: check, remote: remote)
        var outcome = Outcome(files: 0, removed: [], left: [])
        var forgotten: [String: [Int64]] = [:]
        for orphan in audit.orphans {
            var kept = false
            for (output, problem) in orphan.outputs {
                switch problem {
                case nil:
                    do {
                        if !dryRun { try FileManager.default.removeItem(atPath: output.path) }
                        outcome.removed.append(output.path)
                    } catch {
                        kept = true
                        outcome.left.append((output.path, "could not be removed: \(error.localizedDescription)"))
                    }
                case .missing?:
                    continue
                case let problem?:
                    outcome.left.append((output.path, "\(problem); not as it was made, so not removed"))
                }
            }
            guard !kept else { continue }
            forgotten[orphan.stateDirectory, default: []].append(orphan.entry)
            outcome.files += 1
        }
        if !dryRun {
            for (directory, entries) in forgotten.sorted(by: { $0.key < $1.key }) {
                _ = try await locator.store.withLedger(in: directory) { try await $0.forgetDoneFiles(entries) }
            }
        }
        return outcome
    }
}
