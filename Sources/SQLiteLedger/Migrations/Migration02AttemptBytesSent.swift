/// Schema version 2: the file bytes each attempt sent, for the report's bytes up.
enum Migration02AttemptBytesSent: LedgerMigration {
    static let id = "v2-attempt-bytes-sent"
    static let sql = """
        ALTER TABLE attempts ADD COLUMN bytes_sent INTEGER NOT NULL DEFAULT 0 CHECK (bytes_sent >= 0);
        """
}
