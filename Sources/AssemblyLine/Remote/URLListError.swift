/// Why a URL list cannot be read at all: its file, or a form that is not the format's; names the file, line and column.
///
/// The CLI answers it as invalid input (65). A row whose data alone is refused is skipped instead (``URLListSkippedRow``).
package struct URLListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the list, and what was expected.
    package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file cannot be opened or read; the system's reason.
        case unreadable(String)
        /// The extension names no format and none was given.
        case unknownFormat
        /// A line (or a CSV record) longer than the reader's bound.
        case lineTooLong(limit: Int)
        /// A line that is not UTF-8.
        case notUTF8
        /// A CSV list without a header row.
        case noHeader
        /// A CSV header without a `url` column.
        case noURLColumn
        /// A CSV column or a JSON key that the format does not know.
        case unknownKey(String)
        /// A CSV column named twice.
        case repeatedColumn(String)
        /// A CSV record with another number of cells than the header.
        case cellCount(found: Int, expected: Int)
        /// A CSV quote that is not RFC 4180's: inside an unquoted cell, or text after a closing quote.
        case strayQuote
        /// A quoted CSV cell still open at the end of the file.
        case unterminatedQuote
        /// A JSON line that is not strict JSON; the parser's reason.
        case notJSON(String)
        /// A JSON line that is not an object, or a member of the wrong type; what was expected.
        case wrongType(String)
        /// A row without a URL.
        case noURL
        /// The URL was listed before, on `line`.
        case repeatedURL(firstLine: Int)
        /// The output name was given to another row before, on `line`.
        case repeatedName(String, firstLine: Int)

        package var description: String {
            switch self {
            case let .unreadable(reason): "cannot be read: \(reason)"
            case .unknownFormat: "expected a list named .txt, .list, .csv, .jsonl or .ndjson, or a format: text, csv or jsonl"
            case let .lineTooLong(limit): "a line over \(limit) bytes; expected one URL (and its columns) a line"
            case .notUTF8: "expected UTF-8 text"
            case .noHeader: "expected a header row naming the columns (url, and name, etag, size, last_modified, fields.NAME)"
            case .noURLColumn: "the header has no url column; expected url and, optionally, name, etag, size, last_modified, fields.NAME"
            case let .unknownKey(name): "unknown column or key \(Self.quoted(name)); expected url, name, etag, size, last_modified, fields (fields.NAME in CSV)"
            case let .repeatedColumn(name): "column \(Self.quoted(name)) is named twice"
            case let .cellCount(found, expected): "\(found) cells; expected \(expected), one for each column of the header"
            case .strayQuote: "a quote inside a cell; expected a quoted cell (\"a\"\"b\") or none"
            case .unterminatedQuote: "a quoted cell is not closed by the end of the file"
            case let .notJSON(reason): "expected a JSON object a line: \(reason)"
            case let .wrongType(expected): "expected \(expected)"
            case .noURL: "expected a url"
            case let .repeatedURL(firstLine): "the URL is listed on line \(firstLine) already; expected each URL once"
            case let .repeatedName(name, firstLine): "the output name \(Self.quoted(name)) is taken by line \(firstLine) already; expected a name for each"
            }
        }

        private static func quoted(_ text: String) -> String {
            "'" + RemoteText.escaped(text, limit: 80) + "'"
        }
    }

    /// The file as the user named it.
    package var file: String
    /// From 1; 0 when the problem is the file's as a whole.
    package var line: Int
    /// A byte of the line, from 1.
    package var column: Int
    package var problem: Problem

    package init(file: String, line: Int, column: Int, problem: Problem) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// `FILE:LINE:COL: problem` (`FILE: problem` for the file as a whole), one line.
    package var description: String {
        line > 0 ? "\(file):\(line):\(column): \(problem)" : "\(file): \(problem)"
    }
}
