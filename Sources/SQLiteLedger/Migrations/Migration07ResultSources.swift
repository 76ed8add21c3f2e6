/// Schema version 7: which inputs of its Assembly each result was made from (`source`: `file`, `several`,
/// `unmatched`), and for a result of several, which (`result_inputs`). Only a result of the file's own, or
/// of several that name it, makes a file done; one that names no input of its Assembly counts for none.
///
/// Earlier results without a file were taken as made from every file of their shard, and are kept so.
enum Migration07ResultSources: LedgerMigration {
    static let id = "v7-result-sources"
    static let sql = """
        ALTER TABLE results ADD COLUMN source TEXT NOT NULL DEFAULT 'file' CHECK (source IN ('file', 'several', 'unmatched'));
        UPDATE results SET source = 'several' WHERE file_index IS NULL;
        CREATE TABLE result_inputs (
            result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
            run_id TEXT NOT NULL,
            file_index INTEGER NOT NULL,
            PRIMARY KEY (result_id, file_index),
            FOREIGN KEY (run_id, file_index) REFERENCES files (run_id, file_index) ON DELETE CASCADE
        );
        CREATE INDEX result_inputs_by_file ON result_inputs (run_id, file_index);
        INSERT INTO result_inputs (result_id, run_id, file_index)
            SELECT r.id, r.run_id, f.file_index FROM results r
            CROSS JOIN files f ON f.run_id = r.run_id AND f.shard_index = r.shard_index
            WHERE r.file_index IS NULL;
        """
}
