/// A page of a report's files with where their outputs went, their texts kept as the ledger gave them: what
/// `report --format csv|json` writes a million files from without a string, array or record made for each file.
///
/// Each file's path, relative path and outputs are ranges of one buffer of UTF-8 bytes; a file's outputs are
/// linked in result order, whatever order the results are added in relative to other files'.
package struct ReportedFilePage: Sendable {
    /// One file of the page: its figures, and where its texts are in ``bytes``.
    package struct Row: Sendable {
        package var index: Int
        package var shardIndex: Int?
        package var size: Int64
        package var modifiedNanoseconds: Int64
        package var state: FileState
        package var failure: FailureReason?
        package var path: Range<Int>
        package var relativePath: Range<Int>
        /// The sizes of its outputs' results, summed (0 for a result the service gave no size).
        package var outputBytes: Int64 = 0
        /// Its first and last output in ``outputs``; -1 for none.
        fileprivate var firstOutput = -1, lastOutput = -1
    }

    /// One output of a file: where its text is in ``bytes``, and the next output of the same file (-1 for none).
    private struct Output: Sendable {
        var text: Range<Int>
        var next: Int
    }

    /// The texts of every file and output of the page, one after the other.
    package private(set) var bytes: [UInt8] = []
    /// The files, in the order they were added (file order, from the ledger).
    package private(set) var rows: [Row] = []
    private var outputs: [Output] = []

    package init() {}

    /// A page of `files`, in their order.
    package init(_ files: [ReportedFile]) {
        for file in files {
            let record = file.record
            var path = record.file.path, relativePath = record.file.relativePath
            path.withUTF8 { path in
                relativePath.withUTF8 { relativePath in
                    append(index: record.index, shardIndex: record.shardIndex, path: path, relativePath: relativePath, size: record.file.size,
                           modifiedNanoseconds: record.file.modifiedNanoseconds, state: record.state, failure: record.failure)
                }
            }
            for var output in file.outputs {
                output.withUTF8 { appendOutput($0, size: 0, toRow: rows.count - 1) }
            }
            rows[rows.count - 1].outputBytes = file.outputBytes
        }
    }

    package var isEmpty: Bool { rows.isEmpty }

    /// Adds a file after the others, with no outputs yet.
    package mutating func append(index: Int, shardIndex: Int?, path: UnsafeBufferPointer<UInt8>, relativePath: UnsafeBufferPointer<UInt8>,
                                 size: Int64, modifiedNanoseconds: Int64, state: FileState, failure: FailureReason?) {
        let pathRange = store(path)
        rows.append(Row(index: index, shardIndex: shardIndex, size: size, modifiedNanoseconds: modifiedNanoseconds, state: state,
                        failure: failure, path: pathRange, relativePath: store(relativePath)))
    }

    /// The position in ``rows`` of the file of `index`, or nil when the page holds none: the files are in file order.
    package func position(ofFile index: Int) -> Int? {
        guard let first = rows.first?.index else { return nil }
        let guess = index - first
        if rows.indices.contains(guess), rows[guess].index == index { return guess }
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].index < index { low = middle + 1 } else { high = middle }
        }
        return low < rows.count && rows[low].index == index ? low : nil
    }

    /// Adds an output (a download's path, or a result's URL) of `size` bytes after the other outputs of the file at `position`.
    package mutating func appendOutput(_ text: UnsafeBufferPointer<UInt8>, size: Int64, toRow position: Int) {
        let output = outputs.count
        outputs.append(Output(text: store(text), next: -1))
        if rows[position].lastOutput >= 0 {
            outputs[rows[position].lastOutput].next = output
        } else {
            rows[position].firstOutput = output
        }
        rows[position].lastOutput = output
        rows[position].outputBytes += size
    }

    /// Calls `body` with where the text of each output of `row` is in ``bytes``, in result order.
    package func forEachOutput(of row: Row, _ body: (Range<Int>) -> Void) {
        var output = row.firstOutput
        while output >= 0 {
            body(outputs[output].text)
            output = outputs[output].next
        }
    }

    /// The text of a range of ``bytes`` (ill-formed UTF-8 repaired, as the ledger's strings are).
    package func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The files as records, with their outputs.
    package var files: [ReportedFile] {
        rows.map { row in
            var outputs: [String] = []
            forEachOutput(of: row) { outputs.append(text($0)) }
            let file = PlannedFile(path: text(row.path), relativePath: text(row.relativePath), size: row.size,
                                   modifiedNanoseconds: row.modifiedNanoseconds)
            return ReportedFile(record: FileRecord(index: row.index, shardIndex: row.shardIndex, file: file, state: row.state, failure: row.failure),
                                outputs: outputs, outputBytes: row.outputBytes)
        }
    }

    private mutating func store(_ text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: text)
        return start..<bytes.count
    }
}
