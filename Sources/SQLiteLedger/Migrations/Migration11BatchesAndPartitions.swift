/// Schema version 11: the batch a run belongs to and the part of its files it took (issue 23), so that
/// the ledgers of a night's partitions can be merged and checked. Earlier runs are of no batch, whole.
enum Migration11BatchesAndPartitions: LedgerMigration {
    static let id = "v11-batches-and-partitions"
    static let sql = """
        ALTER TABLE runs ADD COLUMN batch_id TEXT;
        ALTER TABLE runs ADD COLUMN partition_index INTEGER NOT NULL DEFAULT 0 CHECK (partition_index >= 0);
        ALTER TABLE runs ADD COLUMN partition_count INTEGER NOT NULL DEFAULT 1 CHECK (partition_count >= 1);
        CREATE INDEX runs_by_batch ON runs (batch_id) WHERE batch_id IS NOT NULL;
        """
}
