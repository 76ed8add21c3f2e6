package import Foundation

/// Which runs a listing shows: those of one manifest, in one state, started since a time; each nil matches any.
package struct RunFilter: Sendable, Hashable {
    /// The manifest's absolute path, as runs record it.
    package var manifestPath: String?
    package var state: RunState?
    /// Runs created at or after this time.
    package var since: Date?

    package init(manifestPath: String? = nil, state: RunState? = nil, since: Date? = nil) {
        self.manifestPath = manifestPath
        self.state = state
        self.since = since
    }
}
