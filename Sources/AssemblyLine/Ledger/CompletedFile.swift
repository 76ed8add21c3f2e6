/// A file the done index holds for a manifest and recipe: what an incremental run may skip while its outputs are in place.
package struct CompletedFile: Sendable, Hashable {
    /// The index's key for the file, by which a run's ``DoneIndexReview`` names it.
    package var entry: Int64
    /// Whether the latest run that read the index did not skip it (it was gone from the plan, or its outputs were not in place).
    package var missed: Bool
    /// The outputs the run that did it last recorded.
    package var outputs: [RecordedOutput]

    package init(entry: Int64, missed: Bool = false, outputs: [RecordedOutput]) {
        self.entry = entry
        self.missed = missed
        self.outputs = outputs
    }
}
