/// Schema version 15: replays instead of re-uploads. An attempt that replays a failed Assembly names it
/// (`parent_assembly_id`), an attempt whose Assembly itself failed after its uploads were stored says so
/// (`failed_executing`), and a run of a Template at the account keeps the Template's ID (`template_id`), so that a
/// resume after a push of the Template's file is known for what it is; a run of a Template file keeps the SHA-256 of
/// its content (`template_sha256`), which `report` shows.
enum Migration15ReplaysAndTemplateRuns: LedgerMigration {
    static let id = "v15-replays-and-template-runs"
    static let sql = """
        ALTER TABLE attempts ADD COLUMN parent_assembly_id TEXT
            CHECK (length(parent_assembly_id) = 32 AND parent_assembly_id NOT GLOB '*[^0-9a-f]*');
        ALTER TABLE attempts ADD COLUMN failed_executing INTEGER NOT NULL DEFAULT 0 CHECK (failed_executing IN (0, 1));
        ALTER TABLE runs ADD COLUMN template_id TEXT;
        ALTER TABLE runs ADD COLUMN template_sha256 TEXT
            CHECK (length(template_sha256) = 64 AND template_sha256 NOT GLOB '*[^0-9a-f]*');
        """
}
