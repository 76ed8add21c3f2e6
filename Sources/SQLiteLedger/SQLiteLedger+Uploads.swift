package import AssemblyLine
package import Foundation

extension SQLiteLedger {
    package func recordUpload(_ run: RunID, shard: Int, attempt: Int, file: Int, url: String, length: Int64,
                             at time: Date) throws {
        try write { database in
            _ = try shardRow(run, shard, in: database)
            try requireAttempt(run, shard, attempt, in: database)
            try requireFile(run, shard, file, in: database)
            guard length >= 0 else { throw LedgerError.invalidUploadLength(run, file: file, length: length) }
            let key = Self.uploadKey(run, shard, attempt, file)
            let existing = try database.firstRow("""
                SELECT upload_url, upload_length FROM uploads
                WHERE run_id = ? AND shard_index = ? AND attempt = ? AND file_index = ?
                """, key) { (url: $0.text(0), length: $0.integer(1)) }
            if let existing, existing.url == url, existing.length == length { return }
            let now = Self.text(time)
            try database.execute("""
                INSERT INTO uploads (run_id, shard_index, attempt, file_index, upload_url, upload_offset, upload_length,
                                     created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)
                ON CONFLICT (run_id, shard_index, attempt, file_index) DO UPDATE SET
                    upload_url = excluded.upload_url, upload_offset = 0, upload_length = excluded.upload_length,
                    created_at = excluded.created_at, updated_at = excluded.updated_at
                """, key + [.text(url), .integer(length), .text(now), .text(now)])
            let replacing = existing == nil ? "" : ", replacing the earlier one"
            try insertEvent(run, shard: shard, kind: .uploadCreated,
                            message: "file \(file): tus upload of \(length) bytes for attempt \(attempt)\(replacing)",
                            at: time, in: database)
        }
    }

    package func recordUploadOffset(_ run: RunID, shard: Int, attempt: Int, file: Int, url: String, offset: Int64,
                                   at time: Date) throws {
        try write { database in
            let key = Self.uploadKey(run, shard, attempt, file)
            let row = try database.firstRow("""
                SELECT upload_url, upload_offset, upload_length FROM uploads
                WHERE run_id = ? AND shard_index = ? AND attempt = ? AND file_index = ?
                """, key) { (url: $0.text(0), offset: $0.integer(1) ?? 0, length: $0.integer(2) ?? 0) }
            guard let row, row.url == url else {
                _ = try shardRow(run, shard, in: database)
                throw LedgerError.uploadNotFound(run, shard: shard, attempt: attempt, file: file)
            }
            guard offset >= row.offset else {
                throw LedgerError.uploadOffsetBackwards(run, file: file, recorded: row.offset, offset: offset)
            }
            guard offset <= row.length else {
                throw LedgerError.uploadOffsetBeyondLength(run, file: file, offset: offset, length: row.length)
            }
            guard offset > row.offset else { return }
            try database.execute("""
                UPDATE uploads SET upload_offset = ?, updated_at = ?
                WHERE run_id = ? AND shard_index = ? AND attempt = ? AND file_index = ?
                """, [.integer(offset), .text(Self.text(time))] + key)
        }
    }

    package func uploads(of run: RunID, shard: Int) throws -> [UploadRecord] {
        _ = try shardRow(run, shard, in: database())
        return try rows("""
            SELECT \(LedgerRowReader.uploadColumns) FROM uploads
            WHERE run_id = ? AND shard_index = ? ORDER BY attempt, file_index
            """, [.text(run.rawValue), .integer(Int64(shard))], table: "uploads") { try $0.uploadRecord() }
    }

    // MARK: - Helpers

    private static func uploadKey(_ run: RunID, _ shard: Int, _ attempt: Int, _ file: Int) -> [SQLiteValue] {
        [.text(run.rawValue), .integer(Int64(shard)), .integer(Int64(attempt)), .integer(Int64(file))]
    }

    /// Throws `attemptNotFound` unless the shard has attempt number `attempt`.
    private func requireAttempt(_ run: RunID, _ shard: Int, _ attempt: Int, in database: SQLiteConnection) throws {
        let found = try database.firstRow("SELECT 1 FROM attempts WHERE run_id = ? AND shard_index = ? AND attempt = ?",
                                          [.text(run.rawValue), .integer(Int64(shard)), .integer(Int64(attempt))]) { _ in true }
        guard found == true else { throw LedgerError.attemptNotFound(run, shard: shard, attempt: attempt) }
    }

    /// Throws `fileNotFound` or `fileNotInShard` unless the file is one of the shard's.
    private func requireFile(_ run: RunID, _ shard: Int, _ file: Int, in database: SQLiteConnection) throws {
        let owner = try database.firstRow("SELECT shard_index FROM files WHERE run_id = ? AND file_index = ?",
                                          [.text(run.rawValue), .integer(Int64(file))]) { $0.integer(0) }
        guard let owner else { throw LedgerError.fileNotFound(run, file: file) }
        guard owner == Int64(shard) else { throw LedgerError.fileNotInShard(run, file: file, shard: shard) }
    }
}
