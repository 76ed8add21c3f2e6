/// Schema version 9: a shard's files in file order from their own index. With `(run_id, shard_index)`
/// alone SQLite read a shard's files through the primary key, to spare the sort, which reads every
/// file of the run (82% of a 100,000-file run's CPU). `files_by_state` stays `(run_id, state)`: with
/// `file_index` after the state SQLite took it for a shard's files in one state, all the run's.
enum Migration09FilesByShardInOrder: LedgerMigration {
    static let id = "v9-files-by-shard-in-order"
    static let sql = """
        DROP INDEX files_by_shard;
        CREATE INDEX files_by_shard ON files (run_id, shard_index, file_index);
        """
}
