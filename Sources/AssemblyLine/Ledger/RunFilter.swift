package import Foundation

/// Which runs a listing shows: those of one manifest, in one state, started since a time, of one batch
/// and partition; each nil matches any.
package struct RunFilter: Sendable, Hashable {
    /// The manifest's absolute path, as runs record it.
    package var manifestPath: String?
    /// The job's runs (``ManifestJob/keys``), whatever the path of the manifest that ran them.
    package var job: ManifestJob?
    /// The runs of manifests of this name.
    package var name: String?
    package var state: RunState?
    /// Runs created at or after this time.
    package var since: Date?
    package var batch: BatchID?
    package var partition: Partition?

    package init(manifestPath: String? = nil, job: ManifestJob? = nil, name: String? = nil, state: RunState? = nil, since: Date? = nil,
                 batch: BatchID? = nil, partition: Partition? = nil) {
        self.manifestPath = manifestPath
        self.job = job
        self.name = name
        self.state = state
        self.since = since
        self.batch = batch
        self.partition = partition
    }
}
