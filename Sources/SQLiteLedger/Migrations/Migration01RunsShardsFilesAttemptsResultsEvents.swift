/// Schema version 1. Times are UTC text `YYYY-MM-DDTHH:MM:SS.sssZ`; booleans are 0 or 1.
enum Migration01RunsShardsFilesAttemptsResultsEvents: LedgerMigration {
    static let id = "v1-runs-shards-files-attempts-results-events"
    static let sql = """
        CREATE TABLE runs (
            id TEXT NOT NULL PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            manifest_name TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'failed', 'interrupted')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT,
            shard_count INTEGER NOT NULL CHECK (shard_count >= 0),
            file_count INTEGER NOT NULL CHECK (file_count >= 0),
            skipped_count INTEGER NOT NULL CHECK (skipped_count >= 0),
            bytes INTEGER NOT NULL CHECK (bytes >= 0)
        );
        CREATE INDEX runs_by_manifest ON runs (manifest_path, recipe_fingerprint);

        CREATE TABLE shards (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            shard_index INTEGER NOT NULL CHECK (shard_index >= 0),
            state TEXT NOT NULL CHECK (state IN ('planned', 'signed', 'created', 'uploaded', 'executing',
                                                 'completed', 'downloaded', 'failed')),
            file_count INTEGER NOT NULL CHECK (file_count >= 0),
            bytes INTEGER NOT NULL CHECK (bytes >= 0),
            attempt_count INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
            error_code TEXT,
            error_message TEXT,
            retryable INTEGER CHECK (retryable IN (0, 1)),
            updated_at TEXT NOT NULL,
            PRIMARY KEY (run_id, shard_index)
        );
        CREATE INDEX shards_by_state ON shards (run_id, state);

        CREATE TABLE files (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            file_index INTEGER NOT NULL CHECK (file_index >= 0),
            shard_index INTEGER,
            path TEXT NOT NULL,
            relative_path TEXT NOT NULL,
            size INTEGER NOT NULL CHECK (size >= 0),
            modified_ns INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed', 'skipped')),
            error_code TEXT,
            error_message TEXT,
            retryable INTEGER CHECK (retryable IN (0, 1)),
            PRIMARY KEY (run_id, file_index),
            FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE,
            CHECK ((shard_index IS NULL) = (state = 'skipped'))
        );
        CREATE INDEX files_by_shard ON files (run_id, shard_index);
        CREATE INDEX files_by_state ON files (run_id, state);

        CREATE TABLE attempts (
            run_id TEXT NOT NULL,
            shard_index INTEGER NOT NULL,
            attempt INTEGER NOT NULL CHECK (attempt >= 1),
            assembly_id TEXT NOT NULL UNIQUE
                CHECK (length(assembly_id) = 32 AND assembly_id NOT GLOB '*[^0-9a-f]*'),
            outcome TEXT NOT NULL CHECK (outcome IN ('open', 'completed', 'failed', 'superseded')),
            started_at TEXT NOT NULL,
            assembly_url TEXT,
            tus_url TEXT,
            created_at TEXT,
            completed_at TEXT,
            error_code TEXT,
            error_message TEXT,
            retryable INTEGER CHECK (retryable IN (0, 1)),
            PRIMARY KEY (run_id, shard_index, attempt),
            FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE
        );
        CREATE UNIQUE INDEX attempts_one_open ON attempts (run_id, shard_index) WHERE outcome = 'open';

        CREATE TABLE results (
            id INTEGER PRIMARY KEY,
            run_id TEXT NOT NULL,
            shard_index INTEGER NOT NULL,
            attempt INTEGER NOT NULL,
            file_index INTEGER,
            step TEXT NOT NULL,
            remote_id TEXT NOT NULL,
            name TEXT NOT NULL,
            url TEXT NOT NULL,
            size INTEGER NOT NULL CHECK (size >= 0),
            md5 TEXT,
            mime TEXT,
            width INTEGER,
            height INTEGER,
            output_path TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'downloaded')),
            downloaded_at TEXT,
            FOREIGN KEY (run_id, shard_index, attempt) REFERENCES attempts (run_id, shard_index, attempt)
                ON DELETE CASCADE,
            FOREIGN KEY (run_id, file_index) REFERENCES files (run_id, file_index) ON DELETE CASCADE,
            CHECK ((state = 'downloaded') = (downloaded_at IS NOT NULL))
        );
        CREATE INDEX results_by_shard ON results (run_id, shard_index, attempt);
        CREATE INDEX results_by_file ON results (run_id, file_index);

        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            shard_index INTEGER,
            at TEXT NOT NULL,
            kind TEXT NOT NULL,
            message TEXT NOT NULL,
            FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE
        );
        CREATE INDEX events_by_run ON events (run_id, shard_index);
        """
}
