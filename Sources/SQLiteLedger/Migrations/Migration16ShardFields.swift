/// Schema version 16: the Assembly fields a shard's inputs carry (a URL list's rows), as canonical JSON, so that a resume
/// signs each shard's Assemblies with the fields it was planned with; NULL for a shard whose inputs carry none.
enum Migration16ShardFields: LedgerMigration {
    static let id = "v16-shard-fields"
    static let sql = """
        ALTER TABLE shards ADD COLUMN fields TEXT CHECK (fields GLOB '{*}');
        """
}
