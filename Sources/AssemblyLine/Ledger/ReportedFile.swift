/// A file of a run with where its current results went: a row of `report --format csv|json`.
package struct ReportedFile: Sendable, Hashable {
    package var record: FileRecord
    /// Each current result's download path, or its URL when it was not downloaded, in result order; a
    /// result of several inputs is each one's.
    package var outputs: [String]
    /// The sizes of those results, summed (a result's size as the service gave it; 0 when it gave none).
    package var outputBytes: Int64

    package init(record: FileRecord, outputs: [String], outputBytes: Int64 = 0) {
        self.record = record
        self.outputs = outputs
        self.outputBytes = outputBytes
    }
}
