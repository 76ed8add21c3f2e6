/// What a run did of the killed or interrupted run of its job it took over, before it planned its own files.
///
/// A plain `run` takes over its job's newest run when that was killed or interrupted, under the same recipe: the
/// Assemblies it made are followed to their end and their results fetched, never created again; the shards whose
/// Assembly the service no longer knows, or whose results expired, are left, and their files, with those it never
/// sent, are the new run's to send. The old run then ends `superseded` by the new one (docs/pipeline.md).
package struct Takeover: Sendable, Hashable {
    /// The run taken over.
    package var run: RunID
    /// Its shards that had an Assembly, followed to their end.
    package var followed: Int
    /// Of those, the shards now done: their results downloaded and verified.
    package var done: Int
    /// The files of the shards done.
    package var filesDone: Int

    /// The shards followed that did not end done (their Assembly gone, expired or failed): the new run sends their files.
    package var lost: Int { followed - done }

    package init(run: RunID, followed: Int, done: Int, filesDone: Int) {
        self.run = run
        self.followed = followed
        self.done = done
        self.filesDone = filesDone
    }
}
