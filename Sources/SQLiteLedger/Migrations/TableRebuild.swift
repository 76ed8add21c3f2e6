/// A table rebuilt to change its constraints, the only way SQLite allows: created anew as `new_<table>`, filled from
/// the old one, the old one dropped (its indexes with it), the new one renamed, and its indexes created again
/// (sqlite.org, "Making Other Kinds Of Table Schema Changes"). For a migration that `rebuildsTables`.
///
/// The table's stored CREATE text is `columns`, each line indented by four spaces, under the name `"<table>"` the
/// rename gives it: what the migrations that spelled out these steps before it wrote.
struct TableRebuild {
    /// The table's name, before and after.
    let table: String
    /// The new table's columns and constraints, as they read between its parentheses.
    let columns: String
    /// What follows `INSERT INTO new_<table>`: a SELECT from the old table, after a column list when the columns differ.
    let copy: String
    /// The CREATE INDEX statements the rebuilt table has; dropping the old one dropped its own.
    let indexes: [String]

    /// The statements, each ending with a semicolon and a line break.
    var sql: String {
        let indented = columns.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let statements = [
            "CREATE TABLE new_\(table) (\n\(indented)\n)",
            "INSERT INTO new_\(table) \(copy)",
            "DROP TABLE \(table)",
            "ALTER TABLE new_\(table) RENAME TO \(table)",
        ] + indexes
        return statements.map { $0 + ";\n" }.joined()
    }
}
