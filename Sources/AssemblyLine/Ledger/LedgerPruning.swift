/// What a prune of a ledger took out, or, for a dry run, would take out.
package struct LedgerPruning: Sendable, Hashable {
    /// The runs, with every row of theirs.
    package var runs: [RunRecord]
    /// The done files no run did or skipped since the cutoff: the next run sends them again.
    package var doneFiles: Int
    /// The known bad files no run failed or left out since the cutoff: the next run sends them again.
    package var badFiles: Int

    package init(runs: [RunRecord], doneFiles: Int, badFiles: Int) {
        self.runs = runs
        self.doneFiles = doneFiles
        self.badFiles = badFiles
    }
}
