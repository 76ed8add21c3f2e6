import AssemblyLine

/// How a result reads in `report --results` (table, JSON, CSV): its input, its state, and what its download was checked against.
enum ResultText {
    /// The input's relative path, or `(several)` for a result made from several inputs.
    static func input(of record: ResultRecord, among inputs: [Int: String]) -> String {
        guard let index = record.result.fileIndex else { return "(several)" }
        return inputs[index] ?? "#\(index)"
    }

    /// `downloaded`, `pending`, `exported` (in the customer's storage) or `recorded` (not downloaded).
    static func state(of record: ResultRecord) -> String {
        switch record.result.delivery {
        case .download: record.isDownloaded ? "downloaded" : "pending"
        case .exported: "exported"
        case .recorded: "recorded"
        }
    }

    /// What a download was checked against: `size+md5`, `size`, `md5`, or `nothing` when the service gave neither.
    static func checked(_ record: ResultRecord) -> String {
        guard record.isDownloaded else { return "" }
        switch (record.result.size != nil, record.result.md5 != nil) {
        case (true, true): return "size+md5"
        case (true, false): return "size"
        case (false, true): return "md5"
        case (false, false): return "nothing"
        }
    }
}
