/// What a run that read the done index tells it back: the entries whose standing changed since the run before.
///
/// A night confirms every file it skips, but it writes only the exceptions: the entries it did not skip
/// that the run before had (``missed``), and those it skipped again that the run before had not
/// (``regained``). An unchanged night of a million files writes neither; the index keeps, per manifest
/// and recipe, when it was last reviewed, and a file not missed counts as confirmed then.
package struct DoneIndexReview: Sendable, Hashable {
    /// Entries the run did not skip (gone from the plan, changed, or with outputs not in place) that the review before confirmed.
    package var missed: [Int64]
    /// Entries the run skipped that the review before had missed.
    package var regained: [Int64]

    package init(missed: [Int64] = [], regained: [Int64] = []) {
        self.missed = missed
        self.regained = regained
    }
}
