package import Foundation

/// Which runs a listing shows: those of one manifest, in one state, started since a time, of one batch
/// and partition; each nil matches any.
package struct RunFilter: Sendable, Hashable {
    /// The manifest's absolute path, as runs record it.
    package var manifestPath: String?
    package var state: RunState?
    /// Runs created at or after this time.
    package var since: Date?
    package var batch: BatchID?
    package var partition: Partition?

    package init(manifestPath: String? = nil, state: RunState? = nil, since: Date? = nil, batch: BatchID? = nil, partition: Partition? = nil) {
        self.manifestPath = manifestPath
        self.state = state
        self.since = since
        self.batch = batch
        self.partition = partition
    }
}
