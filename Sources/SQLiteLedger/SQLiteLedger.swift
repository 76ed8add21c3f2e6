package import AssemblyLine
package import Foundation

/// The run ledger on an SQLite file: the `RunLedger` port over one connection, owned by an actor.
///
/// The actor runs on its own serial dispatch queue (`DispatchQueueExecutor`), so SQLite's
/// blocking calls never occupy the cooperative thread pool. Opening for writing turns on WAL
/// (and checks it took), then applies the schema's migrations; other processes may read the
/// file meanwhile, with `sqlite3` or a read-only ledger. By convention the file is
/// `<state_dir>/ledger.sqlite`.
package actor SQLiteLedger: RunLedger {
    /// The ledger's file name inside a state directory.
    package static let fileName = "ledger.sqlite"

    /// The ledger file of a state directory: `<state_dir>/ledger.sqlite`.
    package static func path(inStateDirectory directory: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent(fileName).path
    }

    package nonisolated let path: String
    package nonisolated let mode: SQLiteConnection.Mode
    private let executor: DispatchQueueExecutor
    private var connection: SQLiteConnection?

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Opens (for writing: creates and migrates) the ledger at `path`.
    ///
    /// - parameter mode: `.readWrite` creates the file and its directory when missing, turns on
    ///   WAL and migrates; `.readOnly` needs an existing ledger in WAL mode whose schema is
    ///   exactly what this binary knows, and never writes.
    /// - parameter busyTimeout: how long a write waits for another process's write lock.
    /// - throws: `SQLiteError`, e.g. of kind `.unknownMigrations` for a ledger of a newer AssemblyLine.
    package static func open(path: String, mode: SQLiteConnection.Mode = .readWrite,
                            busyTimeout: Duration = .seconds(10)) async throws -> SQLiteLedger {
        let ledger = SQLiteLedger(path: path, mode: mode)
        try await ledger.connect(busyTimeout: busyTimeout)
        return ledger
    }

    /// Opens the ledger of a state directory (see `path(inStateDirectory:)`).
    package static func open(stateDirectory: String, mode: SQLiteConnection.Mode = .readWrite) async throws -> SQLiteLedger {
        try await open(path: path(inStateDirectory: stateDirectory), mode: mode)
    }

    private init(path: String, mode: SQLiteConnection.Mode) {
        self.path = path
        self.mode = mode
        self.executor = DispatchQueueExecutor(label: "assemblyline.ledger")
    }

    private func connect(busyTimeout: Duration) throws {
        if mode == .readWrite {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let connection = try SQLiteConnection(path: path, mode: mode, busyTimeout: busyTimeout)
        let stamped = try recognise(connection)
        switch mode {
        case .readWrite:
            try connection.enableWAL()
            try LedgerSchema.migrator.migrate(connection)
            if !stamped { try connection.execute("PRAGMA application_id = \(Self.applicationID)") }
        case .readOnly:
            let journal = try connection.journalMode()
            guard journal == "wal" else {
                throw SQLiteError.check(.walUnavailable, "journal_mode is '\(journal)', expected 'wal'", path: path)
            }
            try LedgerSchema.migrator.verify(connection)
        }
        self.connection = connection
    }

    /// The SQLite `application_id` that marks a file as an AssemblyLine ledger ("ALLG").
    package static let applicationID: Int32 = 0x414C_4C47

    /// Checks, before anything is written, that the file is a ledger; returns whether it carries the ledger's `application_id`.
    ///
    /// A file with the ID is one; so is one without it that holds the ledger's `migrations` table
    /// (written before the ID was set) and, for writing only, an empty database (a new file). Any
    /// other file is refused untouched: not an SQLite database, or another program's.
    private func recognise(_ connection: SQLiteConnection) throws -> Bool {
        let id: Int32
        let tables: [String]
        do {
            id = Int32(truncatingIfNeeded: Int64(try connection.pragmaValue("application_id") ?? "0") ?? 0)
            tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", []) { $0.text(0) ?? "" }
        } catch let error as SQLiteError where error.is(.notADatabase) {
            throw SQLiteError.check(.notALedger, "not an AssemblyLine ledger (not an SQLite database); left untouched", path: path)
        }
        if id == Self.applicationID { return true }
        if id == 0, tables.contains("migrations") { return false }
        if id == 0, tables.isEmpty, mode == .readWrite { return false }
        let what = id != 0 ? "application_id \(id)" : tables.isEmpty ? "an empty database" : "tables \(tables.prefix(5).joined(separator: ", "))"
        throw SQLiteError.check(.notALedger, "not an AssemblyLine ledger (\(what)); left untouched", path: path)
    }

    /// Closes the connection; later calls throw an error of kind `.closed`.
    package func close() {
        connection = nil
    }

    /// The result of `PRAGMA integrity_check`: `["ok"]` for a sound file.
    package func integrityCheck() throws -> [String] {
        try database().integrityCheck()
    }

    /// The IDs of the schema migrations the file has applied.
    package func appliedMigrations() throws -> [String] {
        try LedgerSchema.migrator.appliedMigrations(in: database())
    }

    // MARK: - Helpers for the extensions

    func database() throws -> SQLiteConnection {
        guard let connection else {
            throw SQLiteError.closed(path: path)
        }
        return connection
    }

    /// Calls `body` with the SQL text of each statement the ledger runs from now on (``SQLiteConnection/traceStatements(_:)``).
    package func traceStatements(_ body: @escaping @Sendable (String) -> Void) throws {
        try database().traceStatements(body)
    }

    /// Runs `body` in an IMMEDIATE transaction (every write of the ledger is one).
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let database = try database()
        return try database.inTransaction(.immediate) { try body(database) }
    }

    /// Decodes the rows of `sql` with a reader for `table`.
    func rows<T>(_ sql: String, _ arguments: [SQLiteValue], table: String,
                 _ decode: (inout LedgerRowReader) throws -> T) throws -> [T] {
        var rows: [T] = []
        try forEachRow(sql, arguments, table: table) { rows.append(try decode(&$0)) }
        return rows
    }

    /// Calls `body` with a reader for `table` on each row of `sql` as it is stepped to, holding none.
    func forEachRow(_ sql: String, _ arguments: [SQLiteValue], table: String, _ body: (inout LedgerRowReader) throws -> Void) throws {
        try database().cachedStatement(sql).forEachRow(arguments) { statement in
            var reader = LedgerRowReader(statement, table: table, path: path)
            try body(&reader)
        }
    }

    /// Throws `LedgerError.runNotFound` unless the run exists.
    func requireRun(_ run: RunID, in database: SQLiteConnection) throws {
        let exists = try database.firstRow("SELECT 1 FROM runs WHERE id = ?", [.text(run.rawValue)]) { _ in true }
        guard exists == true else { throw LedgerError.runNotFound(run) }
    }

    /// Adds a line to the run's history in a transaction of its own.
    package func recordEvent(_ run: RunID, shard: Int?, _ note: LedgerNote, at time: Date) throws {
        try write { database in
            try requireRun(run, in: database)
            if let shard { _ = try shardRow(run, shard, in: database) }
            try insertEvent(run, shard: shard, kind: note.kind, message: note.message, at: time, in: database)
        }
    }

    /// Adds an event row inside the caller's transaction.
    func insertEvent(_ run: RunID, shard: Int?, kind: LedgerEventKind, message: String, at time: Date,
                     in database: SQLiteConnection) throws {
        try database.execute("INSERT INTO events (run_id, shard_index, at, kind, message) VALUES (?, ?, ?, ?, ?)",
                             [.text(run.rawValue), .integer(shard), .text(Self.text(time)), .state(kind), .text(message)])
    }

    /// `?, ?, ?`: the parameters of an `IN (…)` of `count` values; numbered `?4, ?5` from `first` in a statement with numbered ones.
    static func placeholders(_ count: Int, from first: Int? = nil) -> String {
        guard let first else { return Array(repeating: "?", count: count).joined(separator: ", ") }
        return (first..<first + count).map { "?\($0)" }.joined(separator: ", ")
    }

    /// A time as the ledger stores it.
    static func text(_ time: Date) -> String {
        UTCDateTime(time).iso8601Text
    }
}

extension SQLiteLedger {
    /// Opens the ledger at `path`, gives it to `body`, and closes it however `body` ends.
    package static func with<T>(path: String, mode: SQLiteConnection.Mode = .readWrite,
                                _ body: (SQLiteLedger) async throws -> T) async throws -> T {
        let ledger = try await open(path: path, mode: mode)
        do {
            let value = try await body(ledger)
            await ledger.close()
            return value
        } catch {
            await ledger.close()
            throw error
        }
    }

    /// The ledger of a state directory, as ``with(path:mode:_:)``.
    package static func with<T>(stateDirectory: String, mode: SQLiteConnection.Mode = .readWrite,
                                _ body: (SQLiteLedger) async throws -> T) async throws -> T {
        try await with(path: path(inStateDirectory: stateDirectory), mode: mode, body)
    }
}
