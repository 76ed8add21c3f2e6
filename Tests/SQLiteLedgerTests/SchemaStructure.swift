import Foundation
import SQLiteLedger

/// What a database's schema is made of, one line a fact: to compare two schemas whose stored text may differ.
///
/// SQLite keeps each CREATE statement's text and edits it in place: `ALTER TABLE ... ADD COLUMN` splices the
/// column into it, `RENAME TO` quotes the new name. Two ledgers of one schema may so hold different text, and what
/// matters is compared instead: each table's columns in order (name, declared type, NOT NULL, default, place in the
/// primary key), its foreign keys (columns, the table and columns they refer to, ON UPDATE, ON DELETE, MATCH), its
/// CHECK expressions (SQLite reports them nowhere else: read from its text, whitespace collapsed), its indexes
/// (columns in order with their sort order and collation, unique or not, made by CREATE INDEX or for a PRIMARY KEY
/// or UNIQUE, the partial index's WHERE), and each trigger and view (its text, whitespace collapsed).
struct SchemaStructure: Equatable {
    /// The facts, sorted.
    let facts: [String]

    init(_ connection: SQLiteConnection) throws {
        var facts: [String] = []
        let tables = try connection.rows(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ) { (name: $0.text(0) ?? "", sql: $0.text(1) ?? "") }
        for table in tables {
            facts += try connection.rows("""
                SELECT cid, name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)
                """, [.text(table.name)]) { column in
                "column \(table.name) #\(column.integer(0) ?? -1) \(column.text(1) ?? "") \(column.text(2) ?? "")"
                    + " notnull=\(column.integer(3) ?? -1) default=\(column.text(4) ?? "none") pk=\(column.integer(5) ?? -1)"
            }
            facts += try connection.rows("""
                SELECT id, seq, "from", "table", "to", on_update, on_delete, "match" FROM pragma_foreign_key_list(?)
                """, [.text(table.name)]) { key in
                "foreign key \(table.name) #\(key.integer(0) ?? -1).\(key.integer(1) ?? -1) \(key.text(2) ?? "")"
                    + " → \(key.text(3) ?? "").\(key.text(4) ?? "(primary key)") on update \(key.text(5) ?? "")"
                    + " on delete \(key.text(6) ?? "") match \(key.text(7) ?? "")"
            }
            facts += Self.checks(in: table.sql).map { "check \(table.name) \($0)" }
            facts += try Self.indexFacts(of: table.name, in: connection)
        }
        facts += try connection.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('trigger', 'view')") {
            "\($0.text(0) ?? "") \($0.text(1) ?? "") on \($0.text(2) ?? ""): \(Self.collapsed($0.text(3) ?? ""))"
        }
        self.facts = facts.sorted()
    }

    /// One line for each index of `table`, those SQLite made for its PRIMARY KEY and UNIQUE constraints included.
    private static func indexFacts(of table: String, in connection: SQLiteConnection) throws -> [String] {
        let indexes = try connection.rows("""
            SELECT l.name, l."unique", l.origin, s.sql FROM pragma_index_list(?) l
            LEFT JOIN sqlite_schema s ON s.type = 'index' AND s.name = l.name
            """, [.text(table)]) { (name: $0.text(0) ?? "", unique: $0.integer(1) ?? -1, origin: $0.text(2) ?? "", sql: $0.text(3)) }
        return try indexes.map { index in
            let columns = try indexColumns(index.name, in: connection, detailed: true)
            let condition = index.sql.flatMap(partialCondition).map { " WHERE \($0)" } ?? ""
            return "index \(index.name) on \(table) (\(columns.joined(separator: ", ")))\(condition)"
                + " unique=\(index.unique) origin=\(index.origin)"
        }
    }

    /// The key columns of an index in order; `detailed` adds each one's sort order and collation.
    static func indexColumns(_ index: String, in connection: SQLiteConnection, detailed: Bool) throws -> [String] {
        try connection.rows("SELECT name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno",
                            [.text(index)]) { column in
            let name = column.text(0) ?? "(expression)"
            return detailed ? "\(name) \(column.integer(1) == 1 ? "DESC" : "ASC") \(column.text(2) ?? "")" : name
        }
    }

    /// The WHERE of a partial index's CREATE text, whitespace collapsed; nil for an index of every row.
    static func partialCondition(of sql: String) -> String? {
        sql.range(of: " WHERE ", options: [.caseInsensitive, .backwards]).map { collapsed(sql[$0.upperBound...]) }
    }

    /// The `CHECK (...)` constraints of a CREATE TABLE text, in order, whitespace collapsed.
    static func checks(in sql: String) -> [String] {
        var checks: [String] = []
        var rest = sql[...]
        while let keyword = rest.range(of: "CHECK", options: .caseInsensitive) {
            rest = rest[keyword.upperBound...]
            guard let open = rest.firstIndex(where: { !$0.isWhitespace }), rest[open] == "(" else { continue }
            var depth = 0
            var quoted = false
            guard let close = rest[open...].firstIndex(where: { character in
                if character == "'" { quoted.toggle() }
                if !quoted, character == "(" { depth += 1 }
                if !quoted, character == ")" { depth -= 1 }
                return depth == 0
            }) else { break }
            checks.append("CHECK " + collapsed(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return checks
    }

    /// `text` with each run of whitespace made one space.
    static func collapsed(_ text: some StringProtocol) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
