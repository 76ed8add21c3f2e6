/// One version of the ledger's schema: the ID the `migrations` table records and the SQL that makes it.
///
/// A ledger records the IDs it applied, so an ID never changes once released, and neither does what its SQL
/// creates: a later change is a later version. ``LedgerSchema/migrations`` lists them in order.
protocol LedgerMigration: Sendable {
    /// The name `migrations.id` records, `v<version>-<what it does>`.
    static var id: String { get }
    /// Whether the SQL rebuilds tables other tables refer to, and so runs with foreign keys off
    /// (``SQLiteMigrator/registerMigration(_:rebuildsTables:_:)``).
    static var rebuildsTables: Bool { get }
    /// The statements of the version, run in one transaction.
    static var sql: String { get }
}

extension LedgerMigration {
    static var rebuildsTables: Bool { false }
}
