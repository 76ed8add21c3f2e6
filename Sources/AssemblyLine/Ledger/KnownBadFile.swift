/// A file an earlier run of the same manifest and recipe failed for a reason of its own, and that has not changed since.
///
/// The service said the file itself cannot be processed (`IMAGE_RESIZE_ERROR`, a truncated JPEG) and
/// that trying again will not help, or the client refused it before sending for a reason that holds while
/// it is unchanged (`INPUT_EMPTY`: it has no bytes; `OUTPUT_NAME_TOO_LONG`: the layout gives it a path no
/// file can have); sending it again each night costs an Assembly (a billed one), or a restart of its shard,
/// and fails the night for nothing new. A run leaves it out (`known_bad`) while its path, size and modification
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
