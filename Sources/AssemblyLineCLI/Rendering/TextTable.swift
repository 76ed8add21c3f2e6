/// A plain-text table with a header, columns padded to their widest cell.
enum TextTable {
    static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == cells.count - 1 && !rightAligned.contains(column) { return cell }
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The text without spaces at its end.
    var trimmingTrailingSpaces: String {
        let bytes = utf8
        guard bytes.last == UInt8(ascii: " ") else { return self }
        let end = bytes.lastIndex { $0 != UInt8(ascii: " ") }.map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(self[..<end])
    }
}
