/// Schema version 12: when each attempt was signed, uploaded, downloaded or failed (the report's timeline),
/// and what its Assembly said it cost (`bytes_usage`) and how long it queued and ran. NULL is
/// unknown: an attempt before this version, or a service that did not say.
enum Migration12AttemptPhasesAndUsage: LedgerMigration {
    static let id = "v12-attempt-phases-and-usage"
    static let sql = """
        ALTER TABLE attempts ADD COLUMN signed_at TEXT;
        ALTER TABLE attempts ADD COLUMN uploaded_at TEXT;
        ALTER TABLE attempts ADD COLUMN downloaded_at TEXT;
        ALTER TABLE attempts ADD COLUMN failed_at TEXT;
        ALTER TABLE attempts ADD COLUMN bytes_usage INTEGER CHECK (bytes_usage >= 0);
        ALTER TABLE attempts ADD COLUMN queue_duration REAL CHECK (queue_duration >= 0);
        ALTER TABLE attempts ADD COLUMN execution_duration REAL CHECK (execution_duration >= 0);
        """
}
