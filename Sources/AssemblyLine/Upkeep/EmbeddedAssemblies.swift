package import Foundation

/// The port to the Assemblies the embedded service keeps in a state directory: what `prune` deletes beside the runs.
package protocol EmbeddedAssemblies: Sendable {
    /// The stored Assemblies of the state directory's embedded service last changed before `cutoff`, as the paths that hold them.
    func stored(in stateDirectory: String, lastChangedBefore cutoff: Date) -> [String]

    /// Deletes a stored Assembly (its uploads and results); one already gone is no error.
    func remove(_ path: String)
}
