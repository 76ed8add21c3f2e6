import AssemblyLine

/// What a command runs with beside its values: where it writes, and the one clock the CLI reads the time from.
struct CommandContext: Sendable {
    var console: Console
    /// The time of day for cutoffs (`--since`, `--older-than`), a page's date and a log line's; a run's own clock is its ports'.
    var clock: any PipelineClock = SystemClock()

    /// The lister of a manifest's bucket (`inputs.s3`) for the commands that read its inputs as they are now.
    func bucketLister(for bucket: BucketInputSettings) throws -> S3BucketLister {
        try RunWiring.bucketLister(for: bucket, clock: clock)
    }
}
