/// Schema version 14: a done set holds one version of each input path, the one done last.
///
/// A file done again after an edit was entered beside its earlier version, both naming the same outputs, so that
/// `check MANIFEST` found the older one's outputs changed after every edit. A run now drops the earlier versions
/// when it enters a file (``SQLiteLedger/recordDoneFiles(ofShard:in:)``); this drops those already there, keeping
/// of each path the version not missed, else the one confirmed last.
enum Migration14OneDoneVersionAPath: LedgerMigration {
    static let id = "v14-one-done-version-a-path"
    static let sql = """
        DELETE FROM done_files WHERE id IN (
            SELECT id FROM (
                SELECT id, row_number() OVER (
                    PARTITION BY set_id, path ORDER BY missed_at IS NULL DESC, confirmed_at DESC, id DESC) AS place
                FROM done_files)
            WHERE place > 1);
        """
}
