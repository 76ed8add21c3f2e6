import AssemblyLine
import ConfigFormat
import Foundation

/// `report --format csv` (RFC 4180, CRLF): a row per file of any ``FileListing``, or a row per result.
enum ReportCSV {
    static let fileHeader = "file,shard,state,path,relative_path,size,error_code,error_message,retryable,outputs"

    /// A row per file: index, shard, state, path, relative path, size, error code, message, retryable, and its
    /// outputs (each output's path, or URL for a result not downloaded, separated by a space), after the partition
    /// for a partitioned listing; written a page at a time as the listing reads them, never as one text.
    static func write(_ listing: some FileListing, to write: (String) -> Void) async throws {
        write((listing.isPartitioned ? "partition," : "") + fileHeader + "\r\n")
        try await listing.forEachPage { partition, page in write(rows(page, prefix: partition.map { "\($0)," } ?? "")) }
    }

    /// The CSV rows of `page`, each after `prefix`.
    private static func rows(_ page: [ReportedFile], prefix: String) -> String {
        var text = ""
        for file in page {
            text += prefix
            let record = file.record
            let cells = [String(record.index), record.shardIndex.map(String.init) ?? "", record.state.rawValue,
                         record.file.path, record.file.relativePath, String(record.file.size),
                         record.failure?.code.rawValue ?? "", record.failure?.message ?? "",
                         record.failure.map { $0.isRetryable ? "true" : "false" } ?? "", file.outputs.joined(separator: " ")]
            for (position, cell) in cells.enumerated() {
                if position > 0 { text += "," }
                text += field(cell)
            }
            text += "\r\n"
        }
        return text
    }

    /// `--results --format csv`: one row per current result of `report`.
    static func results(_ report: RunReport) -> String {
        var lines = ["file,input,step,state,size,md5,checked,where"]
        let inputs = report.inputPaths
        for record in report.results {
            let cells = [record.result.fileIndex.map(String.init) ?? "", ResultText.input(of: record, among: inputs), record.result.step,
                         ResultText.state(of: record), record.result.size.map(String.init) ?? "", record.result.md5 ?? "",
                         ResultText.checked(record), record.destination]
            lines.append(cells.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// RFC 4180: quoted when it holds a comma, quote, or line break; quotes doubled. A native string's bytes are
    /// scanned in place, not through its UTF-8 view a byte at a time.
    private static func field(_ text: String) -> String {
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: special) }) ?? text.utf8.contains(where: special) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
