import AssemblyLine
import Foundation

/// Brings a database's schema forward, one named migration at a time, and records what it applied.
///
/// Migrations have string IDs and run in the order they were registered, each in its own
/// IMMEDIATE transaction that also records its ID in the `migrations` table, so that a crash
/// leaves every migration applied completely or not at all. There is no way back: a database
/// that holds an ID this binary does not know was written by a newer version and is refused.
package struct SQLiteMigrator: Sendable {
    /// One step of the schema.
    package struct Migration: Sendable {
        package let id: String
        /// True for a migration that rebuilds tables other tables refer to (SQLite's way to change a
        /// column's constraints): it runs with foreign keys off and must leave none broken.
        let rebuildsTables: Bool
        let body: @Sendable (SQLiteConnection) throws -> Void
    }

    /// The migrations in the order they apply.
    package private(set) var migrations: [Migration] = []

    package init() {}

    /// Adds a migration after those registered so far; an ID may be registered only once.
    ///
    /// `rebuildsTables`: the body rebuilds tables (create the new one, copy, drop, rename, as
    /// sqlite.org's "Making Other Kinds Of Table Schema Changes" says), so it runs with foreign keys
    /// off, and `PRAGMA foreign_key_check` must find nothing before it commits.
    package mutating func registerMigration(
        _ id: String, rebuildsTables: Bool = false, _ body: @escaping @Sendable (SQLiteConnection) throws -> Void
    ) {
        precondition(!migrations.contains { $0.id == id }, "migration '\(id)' is registered twice")
        migrations.append(Migration(id: id, rebuildsTables: rebuildsTables, body: body))
    }

    /// The IDs of the migrations the database has applied, in the order they were applied.
    package func appliedMigrations(in connection: SQLiteConnection) throws -> [String] {
        let tableExists = try connection.firstRow(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'migrations'") { _ in true } ?? false
        guard tableExists else { return [] }
        return try connection.rows("SELECT id FROM migrations ORDER BY rowid") { $0.text(0) ?? "" }
    }

    /// Applies every registered migration the database lacks, in order.
    ///
    /// - throws: `SQLiteError` of kind `.unknownMigrations` before changing anything when the
    ///   database holds migrations this binary does not know; the error of a failed migration,
    ///   whose transaction is then rolled back (those before it stay applied).
    package func migrate(_ connection: SQLiteConnection) throws {
        try refuseUnknownMigrations(try appliedMigrations(in: connection), path: connection.path)
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS migrations (
                id TEXT NOT NULL PRIMARY KEY,
                applied_at TEXT NOT NULL
            )
            """)
        for migration in migrations {
            // The pragma is a no-op inside a transaction: it is set around it.
            if migration.rebuildsTables { try connection.execute("PRAGMA foreign_keys = OFF") }
            defer { if migration.rebuildsTables { try? connection.execute("PRAGMA foreign_keys = ON") } }
            try connection.inTransaction(.immediate) {
                // Read again under the write lock: another process may have applied it meanwhile.
                let applied = try appliedMigrations(in: connection)
                try refuseUnknownMigrations(applied, path: connection.path)
                guard !applied.contains(migration.id) else { return }
                try migration.body(connection)
                if migration.rebuildsTables { try requireForeignKeys(connection, after: migration.id) }
                try connection.execute("INSERT INTO migrations (id, applied_at) VALUES (?, ?)",
                                       [.text(migration.id), .text(UTCDateTime(Date()).iso8601Text)])
            }
        }
    }

    /// Throws when a row refers to one that is not there, after a migration that rebuilt tables.
    private func requireForeignKeys(_ connection: SQLiteConnection, after id: String) throws {
        let broken = try connection.rows("PRAGMA foreign_key_check") { $0.text(0) ?? "" }
        guard broken.isEmpty else {
            throw SQLiteError.check(.brokenForeignKeys(Set(broken).sorted()),
                                    "migration \(id) left rows in \(Set(broken).sorted().joined(separator: ", ")) "
                                        + "that refer to missing rows; nothing was changed", path: connection.path)
        }
    }

    /// Checks, without writing, that the database has applied exactly the registered migrations.
    ///
    /// - throws: `SQLiteError` of kind `.unknownMigrations` or `.pendingMigrations`.
    package func verify(_ connection: SQLiteConnection) throws {
        let applied = try appliedMigrations(in: connection)
        try refuseUnknownMigrations(applied, path: connection.path)
        let pending = migrations.map(\.id).filter { !applied.contains($0) }
        guard pending.isEmpty else {
            throw SQLiteError.check(.pendingMigrations(pending),
                                    "the schema lacks migrations \(pending.joined(separator: ", ")); "
                                        + "open the ledger for writing once to apply them",
                                    path: connection.path)
        }
    }

    private func refuseUnknownMigrations(_ applied: [String], path: String) throws {
        let known = Set(migrations.map(\.id))
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw SQLiteError.check(.unknownMigrations(unknown),
                                    "the database was migrated beyond what this AssemblyLine knows "
                                        + "(unknown migrations: \(unknown.joined(separator: ", "))); use a newer AssemblyLine",
                                    path: path)
        }
    }
}
