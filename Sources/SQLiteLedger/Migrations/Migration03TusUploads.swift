/// Schema version 3: each file's resumable (tus) upload per attempt, its URL and the offset the server confirmed.
enum Migration03TusUploads: LedgerMigration {
    static let id = "v3-tus-uploads"
    static let sql = """
        CREATE TABLE uploads (
            run_id TEXT NOT NULL,
            shard_index INTEGER NOT NULL,
            attempt INTEGER NOT NULL,
            file_index INTEGER NOT NULL,
            upload_url TEXT NOT NULL,
            upload_offset INTEGER NOT NULL CHECK (upload_offset >= 0),
            upload_length INTEGER NOT NULL CHECK (upload_length >= 0),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (run_id, shard_index, attempt, file_index),
            FOREIGN KEY (run_id, shard_index, attempt) REFERENCES attempts (run_id, shard_index, attempt)
                ON DELETE CASCADE,
            FOREIGN KEY (run_id, file_index) REFERENCES files (run_id, file_index) ON DELETE CASCADE,
            CHECK (upload_offset <= upload_length)
        );
        CREATE INDEX uploads_by_file ON uploads (run_id, file_index);
        """
}
