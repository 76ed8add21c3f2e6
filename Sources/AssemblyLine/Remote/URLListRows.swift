/// The rows of a URL list in order, each read by its format and checked: one pass over its file.
struct URLListRows {
    private let lines: URLListLines
    private let file: String
    private let format: URLListFormat
    private let rule: InputURLRule
    private let limit: Int
    private var columns: URLListColumns?

    init(path: String, file: String, format: URLListFormat, rule: InputURLRule, lineLimit: Int) throws(URLListError) {
        do {
            lines = try URLListLines(path: path, limit: lineLimit)
        } catch {
            throw URLListError(file: file, line: 0, column: 0, problem: error)
        }
        self.file = file
        self.format = format
        self.rule = rule
        limit = lineLimit
    }

    /// The next row, nil after the last.
    ///
    /// - Throws: ``URLListError`` at the line the row starts on, when the list's form is not its format's.
    mutating func next() throws(URLListError) -> URLListRow? {
        while true {
            let start = lines.number + 1
            do throws(URLListRecord.Fault) {
                guard let bytes = try line() else { break }
                if let record = try record(bytes, line: start) { return record.checked(by: rule) }
            } catch {
                throw URLListError(file: file, line: start, column: error.column, problem: error.problem)
            }
        }
        if format == .csv, columns == nil { throw URLListError(file: file, line: 0, column: 0, problem: .noHeader) }
        return nil
    }

    private func line() throws(URLListRecord.Fault) -> [UInt8]? {
        do {
            return try lines.next()
        } catch {
            throw URLListRecord.Fault(error, column: 1)
        }
    }

    private mutating func record(_ bytes: [UInt8], line: Int) throws(URLListRecord.Fault) -> URLListRecord? {
        let blank = bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        switch format {
        case .text:
            let text = bytes.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard !blank, text.first != UInt8(ascii: "#") else { return nil }
            let trimmed = text.reversed().drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.reversed()
            guard let url = String(validating: trimmed, as: UTF8.self) else { throw URLListRecord.Fault(.notUTF8, column: 1) }
            return URLListRecord(line: line, url: URLListRecord.Cell(text: url, column: bytes.count - text.count + 1))
        case .jsonLines:
            return blank ? nil : try URLListJSONLine.record(bytes, line: line)
        case .csv:
            guard !bytes.isEmpty else { return nil }
            let cells = try csvCells(bytes)
            guard let columns else {
                columns = try URLListColumns(header: cells)
                return nil
            }
            return try columns.record(cells, line: line)
        }
    }

    /// A CSV record's cells, taking the lines that follow while a quoted cell is open.
    private func csvCells(_ first: [UInt8]) throws(URLListRecord.Fault) -> [(bytes: [UInt8], column: Int)] {
        var record = URLListCSV()
        var line = first
        while try !record.take(line) {
            guard let next = try self.line() else { throw URLListRecord.Fault(.unterminatedQuote, column: 1) }
            guard record.length + next.count <= limit else { throw URLListRecord.Fault(.lineTooLong(limit: limit), column: 1) }
            line = next
        }
        return record.cells
    }
}
