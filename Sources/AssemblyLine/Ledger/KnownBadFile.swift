/// A file an earlier run of the same manifest and recipe failed for a reason of its own, and that has not changed since.
///
/// The service said the file itself cannot be processed (`IMAGE_RESIZE_ERROR`, a truncated JPEG) and
/// that trying again will not help; sending it again each night costs an Assembly (a billed one) and
/// a restart of its shard. A run leaves it out (`known_bad`) while its path, size and modification
/// time are the same, unless `--retry-failed` (or `--force`) sends it.
package struct KnownBadFile: Sendable, Hashable {
    package var file: PlannedFile
    /// Why it failed when it was last sent.
    package var reason: FailureReason

    package init(file: PlannedFile, reason: FailureReason) {
        self.file = file
        self.reason = reason
    }
}
