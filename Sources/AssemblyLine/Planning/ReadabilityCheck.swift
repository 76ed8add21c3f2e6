import Foundation
import Synchronization

/// The check that this process may read each file of a walked plan that a run sends: `access(R_OK)` of each.
///
/// It is asked of the files a night sends (the plan after the done index: neither skipped as done nor left out as
/// known bad), once the night knows them: an unchanged file skipped as done is not read, so whether it could be is not
/// asked (a `faccessat` a file was a tenth of the CPU of a night that skips a million). The call is the real one, by
/// the user running the night, so that what a mode, an ACL or NFS root squash refuses is refused alike; on every core,
/// each file by its name in its real directory held open (``DirectoryCursor``), which is the path a run opens.
///
/// A night that sends every file it walks (no done index to read yet, or `--force`) has the walk ask each file instead,
/// on the thread that found it, right after its `stat` (``Planner/asksReadabilityInWalk``): a pass after the walk meets
/// the kernel's entries cold again, and made the plan of a million new files 8 % slower.
package struct ReadabilityCheck: Sendable, Hashable {
    /// The absolute, normalized directory the plan's relative paths are under: a warning names the file as walked.
    let base: String

    /// What a run says of a file it may not read, for the `errno` of its `access(R_OK)`.
    static func problem(for errorCode: Int32) -> String {
        "cannot be read: \(FileProbe.message(for: errorCode)); a run fails it alone, before sending anything"
    }

    /// A warning for each file of `plan` this process may not read, in plan order; the shards are asked a run of them a
    /// core.
    func warnings(for plan: Plan) -> [PlanWarning] {
        let shards = plan.shards
        let stripes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, shards.count, plan.fileCount / 1_000))
        let bounds = (0...stripes).map { $0 * shards.count / stripes }
        let found = Mutex<[Int: [PlanWarning]]>([:])
        DispatchQueue.concurrentPerform(iterations: stripes) { stripe in
            var cursor = DirectoryCursor(), mine: [PlanWarning] = []
            for shard in shards[bounds[stripe]..<bounds[stripe + 1]] {
                for file in shard.files {
                    guard let code = cursor.readError(of: file.path) else { continue }
                    mine.append(PlanWarning(path: PathText.appending(file.relativePath, to: base), problem: Self.problem(for: code)))
                }
            }
            found.withLock { $0[stripe] = mine }
        }
        let byStripe = found.withLock { $0 }
        return (0..<stripes).flatMap { byStripe[$0] ?? [] }
    }
}
