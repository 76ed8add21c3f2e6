/// A done file whose input is no longer one of its manifest's (deleted, or matched no more), with the outputs made of it.
///
/// `check MANIFEST` lists them without failing; `prune --orphans` removes the outputs that are on disk as they were
/// made, under the output directory, and then the file's entry in the done index (``OrphanPrune``).
package struct OrphanedFile: Sendable {
    /// The state directory whose done index holds it.
    package var stateDirectory: String
    /// Its key in that done index.
    package var entry: Int64
    /// The input's path as it was done.
    package var input: String
    /// Its outputs that no current input has too, each with what keeps it from being removed (nil: on disk as made).
    package var outputs: [(output: RecordedOutput, problem: OutputCheck.Problem?)]

    package init(stateDirectory: String, entry: Int64, input: String, outputs: [(output: RecordedOutput, problem: OutputCheck.Problem?)]) {
        self.stateDirectory = stateDirectory
        self.entry = entry
        self.input = input
        self.outputs = outputs
    }
}
