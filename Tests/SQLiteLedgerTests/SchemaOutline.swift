import Foundation
import SQLiteLedger

/// The tables, columns and indexes of a ledger, as docs/ledger.md lists them or as a database has them: to hold
/// the doc, an interface, to the schema.
///
/// In the doc's `## Tables`, a `### ` heading names its tables in backticks before its colon; a row of the
/// section's table names columns in backticks in its first cell, `table.column` in a section of several tables
/// (the plain names after it are of that table too); `### Indices` names each index in backticks as
/// `name (column, ...)`, with ` WHERE condition` for a partial one.
struct SchemaOutline: Equatable {
    var tables: Set<String> = []
    /// `table.column`.
    var columns: Set<String> = []
    /// `name (column, ...)`, with ` WHERE condition` for a partial index.
    var indexes: Set<String> = []

    /// What the Markdown of docs/ledger.md lists.
    init(documentedIn markdown: String) {
        let tablesPart = markdown.components(separatedBy: "\n## Tables\n").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        for section in tablesPart.components(separatedBy: "\n### ").dropFirst() {
            let lines = section.split(separator: "\n")
            let heading = lines.first ?? ""
            if heading.hasPrefix("Indices") {
                indexes = Set(Self.codeSpans(in: section).filter { $0.wholeMatch(of: /\w+ \([\w, ]+\)( WHERE .+)?/) != nil })
                continue
            }
            let named = Self.codeSpans(in: heading.prefix { $0 != ":" })
            tables.formUnion(named)
            var table = named.count == 1 ? named[0] : ""
            for row in lines where row.hasPrefix("| `") {
                for name in Self.codeSpans(in: row.split(separator: "|").first ?? "") {
                    let parts = name.split(separator: ".")
                    if parts.count == 2 { table = String(parts[0]) }
                    columns.insert("\(table).\(parts.last ?? "")")
                }
            }
        }
    }

    /// What the database has: its tables but SQLite's own, their columns, and the indexes made by CREATE INDEX.
    init(_ connection: SQLiteConnection) throws {
        tables = Set(try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            $0.text(0) ?? ""
        })
        for table in tables {
            columns.formUnion(try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]) { "\(table).\($0.text(0) ?? "")" })
        }
        let created = try connection.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL") {
            (name: $0.text(0) ?? "", sql: $0.text(1) ?? "")
        }
        for index in created {
            let columns = try SchemaStructure.indexColumns(index.name, in: connection, detailed: false).joined(separator: ", ")
            let condition = SchemaStructure.partialCondition(of: index.sql).map { " WHERE \($0)" } ?? ""
            indexes.insert("\(index.name) (\(columns))\(condition)")
        }
    }

    /// The text between each pair of backticks.
    private static func codeSpans(in text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
