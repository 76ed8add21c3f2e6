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

    /// The CSV rows of `page`, each after `prefix`, written from the page's bytes: no string a file or cell.
    private static func rows(_ page: ReportedFilePage, prefix: String) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(page.bytes.count + page.rows.count * 48)
        page.bytes.withUnsafeBufferPointer { bytes in
            for row in page.rows {
                text.append(utf8: prefix)
                text.append(utf8: String(row.index))
                text.append(comma)
                if let shard = row.shardIndex { text.append(utf8: String(shard)) }
                text.append(comma)
                text.append(utf8: row.state.rawValue)
                text.append(comma)
                appendField(UnsafeBufferPointer(rebasing: bytes[row.path]), to: &text)
                text.append(comma)
                appendField(UnsafeBufferPointer(rebasing: bytes[row.relativePath]), to: &text)
                text.append(comma)
                text.append(utf8: String(row.size))
                text.append(comma)
                if let failure = row.failure {
                    var (code, message) = (failure.code.rawValue, failure.message)
                    code.withUTF8 { appendField($0, to: &text) }
                    text.append(comma)
                    message.withUTF8 { appendField($0, to: &text) }
                    text.append(comma)
                    text.append(utf8: failure.isRetryable ? "true" : "false")
                } else {
                    text.append(comma)
                    text.append(comma)
                }
                text.append(comma)
                var quoted = false
                page.forEachOutput(of: row) { quoted = quoted || needsQuotes(UnsafeBufferPointer(rebasing: bytes[$0])) }
                if quoted { text.append(quote) }
                var first = true
                page.forEachOutput(of: row) { output in
                    if !first { text.append(UInt8(ascii: " ")) }
                    first = false
                    append(UnsafeBufferPointer(rebasing: bytes[output]), doublingQuotes: quoted, to: &text)
                }
                if quoted { text.append(quote) }
                text.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
            }
        }
        return String(decoding: text, as: UTF8.self)
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
        var bytes = text
        guard bytes.withUTF8(needsQuotes) else { return text }
        var field: [UInt8] = []
        bytes.withUTF8 { appendField($0, to: &field) }
        return String(decoding: field, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of a cell as ``field(_:)`` writes it.
    private static func appendField(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let quoted = needsQuotes(text)
        if quoted { output.append(quote) }
        append(text, doublingQuotes: quoted, to: &output)
        if quoted { output.append(quote) }
    }

    /// Whether a cell of these bytes is quoted: it holds a comma, quote, or line break.
    private static func needsQuotes(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.contains { $0 == comma || $0 == quote || $0 == 0x0A || $0 == 0x0D }
    }

    /// Appends `text`, each quote in it twice when `doublingQuotes` (inside a quoted field).
    private static func append(_ text: UnsafeBufferPointer<UInt8>, doublingQuotes: Bool, to output: inout [UInt8]) {
        guard doublingQuotes else { return output.append(contentsOf: text) }
        for byte in text {
            output.append(byte)
            if byte == quote { output.append(quote) }
        }
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
}
