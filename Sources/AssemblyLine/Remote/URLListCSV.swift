/// One RFC 4180 CSV record, taken a line at a time: quoted cells may hold commas, doubled quotes and line breaks.
///
/// Each byte is looked at once, however many lines a quoted cell spans.
struct URLListCSV {
    private enum State {
        case cellStart
        case unquoted
        case quoted
        /// A quote inside a quoted cell: its end, or the first of a doubled pair.
        case quoteInQuoted
    }

    /// The record's cells so far, each with the byte it starts at (from 1).
    private(set) var cells: [(bytes: [UInt8], column: Int)] = []
    private var cell: [UInt8] = []
    private var column = 1
    private var state = State.cellStart
    /// The bytes taken so far, line breaks between lines included.
    private(set) var length = 0

    /// Takes the record's next line; true when the record ends with it, false when a quoted cell is still open.
    ///
    /// - Throws: ``URLListError/Problem/strayQuote`` at its column, for a quote inside an unquoted cell or text after a closing one.
    mutating func take(_ line: [UInt8]) throws(URLListRecord.Fault) -> Bool {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        for byte in line {
            length += 1
            switch (state, byte) {
            case (.cellStart, quote): state = .quoted
            case (.cellStart, comma), (.unquoted, comma), (.quoteInQuoted, comma): endCell()
            case (.unquoted, quote): throw URLListRecord.Fault(.strayQuote, column: length)
            case (.quoted, quote): state = .quoteInQuoted
            case (.quoteInQuoted, quote):
                cell.append(quote)
                state = .quoted
            case (.quoteInQuoted, _): throw URLListRecord.Fault(.strayQuote, column: length)
            case (.cellStart, _), (.unquoted, _):
                cell.append(byte)
                state = .unquoted
            case (.quoted, _): cell.append(byte)
            }
        }
        guard state != .quoted else {
            cell.append(UInt8(ascii: "\n"))
            length += 1
            return false
        }
        endCell()
        return true
    }

    private mutating func endCell() {
        cells.append((cell, column))
        cell = []
        column = length + 1
        state = .cellStart
    }
}
