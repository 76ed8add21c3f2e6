/// How one input file of a run stands; the raw values are what the `files.state` column holds.
package enum FileState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not done yet.
    case pending
    /// Its shard is downloaded: every result of the file selected for download is on disk and
    /// verified, and it has at least one (or an export Robot stored it).
    case done
    /// Its shard is downloaded, but the Assembly made no result for it: a filter Step may mean
    /// it, a lost result may too. Counted and reported apart, never as done.
    case noResult = "no_result"
    /// It failed, with a reason (its own, or its shard's).
    case failed
    /// An earlier run of the same manifest and recipe already did it; it belongs to no shard.
    case skipped
    /// An earlier run of the same manifest and recipe failed it for a reason of its own and it is
    /// unchanged (``KnownBadFile``): not sent, unless `--retry-failed`; it belongs to no shard.
    case knownBad = "known_bad"

    package var description: String { rawValue }
}
