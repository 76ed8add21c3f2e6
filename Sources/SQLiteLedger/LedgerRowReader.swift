import AssemblyLine
import Foundation

/// Reads one row of a ledger query column by column, turning bad values into `SQLiteError.invalidData`.
///
/// The queries' column lists (`LedgerRowReader.runColumns`, ...) and the record readers
/// in `LedgerRowReader+Records.swift` go together: each reader takes its columns in that order.
struct LedgerRowReader {
    private let statement: Statement
    private let table: String
    private let path: String
    private var column: Int32 = 0

    init(_ statement: Statement, table: String, path: String) {
        self.statement = statement
        self.table = table
        self.path = path
    }

    /// Passes over the next `count` columns unread.
    mutating func skip(_ count: Int32) {
        column += count
    }

    mutating func optionalText() -> String? {
        defer { column += 1 }
        return statement.text(column)
    }

    /// The column's text as SQLite holds it, valid until the row's statement steps; throws when it is NULL.
    mutating func bytes() throws -> UnsafeBufferPointer<UInt8> {
        defer { column += 1 }
        guard let value = statement.bytes(column) else { throw invalid(column, "is NULL, expected text") }
        return value
    }

    mutating func text() throws -> String {
        let start = column
        guard let value = optionalText() else { throw invalid(start, "is NULL, expected text") }
        return value
    }

    mutating func optionalInteger() -> Int64? {
        defer { column += 1 }
        return statement.integer(column)
    }

    mutating func integer() throws -> Int64 {
        let start = column
        guard let value = optionalInteger() else { throw invalid(start, "is NULL, expected an integer") }
        return value
    }

    mutating func int() throws -> Int {
        Int(try integer())
    }

    mutating func optionalReal() -> Double? {
        defer { column += 1 }
        return statement.real(column)
    }

    mutating func real() throws -> Double {
        let start = column
        guard let value = optionalReal() else { throw invalid(start, "is NULL, expected a number") }
        return value
    }

    mutating func optionalInt() -> Int? {
        optionalInteger().map { Int($0) }
    }

    mutating func optionalDate() throws -> Date? {
        let start = column
        guard let text = optionalText() else { return nil }
        guard let time = UTCDateTime(iso8601Text: text) else {
            throw invalid(start, "holds '\(text)', expected a time YYYY-MM-DDTHH:MM:SS.sssZ")
        }
        return time.date
    }

    mutating func date() throws -> Date {
        let start = column
        guard let value = try optionalDate() else { throw invalid(start, "is NULL, expected a time") }
        return value
    }

    /// A value of one of the ledger's enumerations, by its raw text.
    /// Its bytes are matched against each value's, no string made of them: a report reads a million states.
    mutating func value<T: RawRepresentable & CaseIterable>(_: T.Type) throws -> T where T.RawValue == String {
        let start = column
        let raw = try bytes()
        guard let value = T.allCases.first(where: { $0.rawValue.utf8.elementsEqual(raw) }) else {
            let expected = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw invalid(start, "holds '\(String(decoding: raw, as: UTF8.self))', expected one of: \(expected)")
        }
        return value
    }

    mutating func batchID() throws -> BatchID? {
        let start = column
        guard let text = optionalText() else { return nil }
        guard let batch = BatchID(rawValue: text) else { throw invalid(start, "holds '\(text)', expected \(BatchID.expected)") }
        return batch
    }

    /// `partition_index`, `partition_count`.
    mutating func partition() throws -> Partition {
        let start = column
        let (index, count) = (try int(), try int())
        guard let partition = Partition(index: index, count: count) else {
            throw invalid(start, "holds \(index) of \(count), expected a part 0 to N-1 of N between 1 and \(Partition.maxCount)")
        }
        return partition
    }

    mutating func runID() throws -> RunID {
        let start = column
        let raw = try text()
        guard let id = RunID(raw) else { throw invalid(start, "holds '\(raw)', expected a run ID") }
        return id
    }

    mutating func optionalRunID() throws -> RunID? {
        let start = column
        guard let raw = optionalText() else { return nil }
        guard let id = RunID(raw) else { throw invalid(start, "holds '\(raw)', expected a run ID") }
        return id
    }

    mutating func assemblyID() throws -> AssemblyID {
        let start = column
        let raw = try text()
        guard let id = AssemblyID(raw) else { throw invalid(start, "holds '\(raw)', expected an Assembly ID") }
        return id
    }

    mutating func optionalAssemblyID() throws -> AssemblyID? {
        let start = column
        guard let raw = optionalText() else { return nil }
        guard let id = AssemblyID(raw) else { throw invalid(start, "holds '\(raw)', expected an Assembly ID") }
        return id
    }

    /// The three columns `error_code, error_message, retryable`; nil when the code is NULL.
    mutating func failure() -> FailureReason? {
        let code = optionalText()
        let message = optionalText()
        let retryable = optionalInteger()
        return code.map { FailureReason(code: FailureCode(rawValue: $0), message: message ?? "", isRetryable: retryable == 1) }
    }

    /// The error for the value of the column at `column`, named only then: a row read well names none.
    private func invalid(_ column: Int32, _ problem: String) -> SQLiteError {
        SQLiteError.check(.invalidData, "column \(table).\(statement.columnName(column)) \(problem)", path: path)
    }
}
