import ConfigFormat
package import Foundation

/// Whether a shard tried again replays its failed Assembly (`POST /assemblies/<id>/replay`) instead of creating one
/// and uploading its files again: the one place that decides it.
///
/// A replay runs on the uploads the service stored for the failed Assembly, so nothing is uploaded again. It is
/// chosen when all of these hold (docs/pipeline.md, "Replay instead of re-upload"):
/// - the recipe is a Template at the account (``AssemblyInstructions/template(id:fields:)``): the docs allow replays of
///   "Instructions saved in a Template", and `reparse_template` 1 runs its current content, a fix pushed since included;
/// - the Assembly itself failed after its uploads were stored (``FailedAssembly``: its status carried an error while it
///   executed, or `ASSEMBLY_CRASHED`), not a transport error, a refused creation or an abort mid-upload;
/// - less than ``window`` has passed since the service accepted it (the glossary's "within 24 hours").
///
/// Anything else is made again as before, and so is a replay the service refuses (the machine falls back).
package struct ReplayRule: Sendable, Hashable {
    /// The docs' window for a replay: 24 hours since the parent Assembly was created.
    package static let window: Duration = .seconds(24 * 60 * 60)

    /// True when the run's Assemblies name a Template at the account.
    package var templateBacked: Bool

    package init(templateBacked: Bool) {
        self.templateBacked = templateBacked
    }

    /// The rule for Assemblies made with `instructions`: only a Template with an account ID is replayed.
    package init(_ instructions: AssemblyInstructions) {
        if case .template = instructions {
            self.init(templateBacked: true)
        } else {
            self.init(templateBacked: false)
        }
    }

    /// The Assembly to replay for a new try of a shard whose last Assembly is `failed` (nil when none failed so), at `now`;
    /// nil when the shard is to create a new Assembly.
    package func parent(replaying failed: FailedAssembly?, now: Date) -> AssemblyID? {
        guard templateBacked, let failed else { return nil }
        guard now < failed.createdAt.addingTimeInterval(Self.window.timeInterval) else { return nil }
        return failed.id
    }
}
