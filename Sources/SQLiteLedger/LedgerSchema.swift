/// The ledger's schema: every migration, in order. docs/ledger.md documents the result for users.
enum LedgerSchema {
    /// The migrator that knows every version of the schema this binary can read and write.
    static var migrator: SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.registerMigration("v1-runs-shards-files-attempts-results-events") { connection in
            try connection.execute(version1)
        }
        migrator.registerMigration("v2-attempt-bytes-sent") { connection in
            try connection.execute(version2)
        }
        migrator.registerMigration("v3-tus-uploads") { connection in
            try connection.execute(version3)
        }
        migrator.registerMigration("v4-no-result-files-and-recorded-results", rebuildsTables: true) { connection in
            try connection.execute(version4)
        }
        migrator.registerMigration("v5-canceled-runs", rebuildsTables: true) { connection in
            try connection.execute(version5)
        }
        migrator.registerMigration("v6-done-files") { connection in
            try connection.execute(version6)
        }
        migrator.registerMigration("v7-result-sources") { connection in
            try connection.execute(version7)
        }
        migrator.registerMigration("v8-known-bad-files", rebuildsTables: true) { connection in
            try connection.execute(version8)
        }
        migrator.registerMigration("v9-files-by-shard-in-order") { connection in
            try connection.execute(version9)
        }
        migrator.registerMigration("v10-done-sets-and-reviews", rebuildsTables: true) { connection in
            try connection.execute(version10)
        }
        migrator.registerMigration("v11-batches-and-partitions") { connection in
            try connection.execute(version11)
        }
        migrator.registerMigration("v12-attempt-phases-and-usage") { connection in
            try connection.execute(version12)
        }
        return migrator
    }

    /// Schema version 2: the file bytes each attempt sent, for the report's bytes up.
    static let version2 = """
        ALTER TABLE attempts ADD COLUMN bytes_sent INTEGER NOT NULL DEFAULT 0 CHECK (bytes_sent >= 0);
        """

    /// Schema version 1. Times are UTC text `YYYY-MM-DDTHH:MM:SS.sssZ`; booleans are 0 or 1.
    static let version1 = """
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

    /// Schema version 3: each file's resumable (tus) upload per attempt, its URL and the offset the server confirmed.
    static let version3 = """
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

    /// Schema version 4: a file the Assembly made no result for (`no_result`); results as
    /// production writes them (no `id`, `size` or URL guaranteed), recorded rather than downloaded
    /// when an export Robot stored them (`exported`) or `output.steps` leaves them out
    /// (`recorded`), whether their URL is temporary, and how often each was fetched.
    ///
    /// SQLite changes a CHECK only by rebuilding the table: each is created anew, filled, dropped
    /// and renamed, with foreign keys off (the migrator's `rebuildsTables`).
    static let version4 = """
        CREATE TABLE new_files (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            file_index INTEGER NOT NULL CHECK (file_index >= 0),
            shard_index INTEGER,
            path TEXT NOT NULL,
            relative_path TEXT NOT NULL,
            size INTEGER NOT NULL CHECK (size >= 0),
            modified_ns INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'no_result', 'failed', 'skipped')),
            error_code TEXT,
            error_message TEXT,
            retryable INTEGER CHECK (retryable IN (0, 1)),
            PRIMARY KEY (run_id, file_index),
            FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE,
            CHECK ((shard_index IS NULL) = (state = 'skipped'))
        );
        INSERT INTO new_files SELECT run_id, file_index, shard_index, path, relative_path, size, modified_ns, state,
            error_code, error_message, retryable FROM files;
        DROP TABLE files;
        ALTER TABLE new_files RENAME TO files;
        CREATE INDEX files_by_shard ON files (run_id, shard_index);
        CREATE INDEX files_by_state ON files (run_id, state);

        CREATE TABLE new_results (
            id INTEGER PRIMARY KEY,
            run_id TEXT NOT NULL,
            shard_index INTEGER NOT NULL,
            attempt INTEGER NOT NULL,
            file_index INTEGER,
            step TEXT NOT NULL,
            remote_id TEXT,
            name TEXT NOT NULL,
            url TEXT,
            size INTEGER CHECK (size >= 0),
            md5 TEXT,
            mime TEXT,
            width INTEGER,
            height INTEGER,
            temporary INTEGER NOT NULL DEFAULT 1 CHECK (temporary IN (0, 1)),
            output_path TEXT,
            state TEXT NOT NULL CHECK (state IN ('pending', 'downloaded', 'exported', 'recorded')),
            downloaded_at TEXT,
            fetches INTEGER NOT NULL DEFAULT 0 CHECK (fetches >= 0),
            FOREIGN KEY (run_id, shard_index, attempt) REFERENCES attempts (run_id, shard_index, attempt)
                ON DELETE CASCADE,
            FOREIGN KEY (run_id, file_index) REFERENCES files (run_id, file_index) ON DELETE CASCADE,
            CHECK ((state = 'downloaded') = (downloaded_at IS NOT NULL)),
            CHECK ((state IN ('pending', 'downloaded')) = (output_path IS NOT NULL AND url IS NOT NULL))
        );
        INSERT INTO new_results (id, run_id, shard_index, attempt, file_index, step, remote_id, name, url, size, md5,
                                 mime, width, height, temporary, output_path, state, downloaded_at, fetches)
            SELECT id, run_id, shard_index, attempt, file_index, step, remote_id, name, url, size, md5, mime, width,
                   height, 1, output_path, state, downloaded_at, CASE state WHEN 'downloaded' THEN 1 ELSE 0 END
            FROM results;
        DROP TABLE results;
        ALTER TABLE new_results RENAME TO results;
        CREATE INDEX results_by_shard ON results (run_id, shard_index, attempt);
        CREATE INDEX results_by_file ON results (run_id, file_index);
        """

    /// Schema version 5: a run an operator stopped with `cancel` is `canceled` (the runs table rebuilt for its CHECK).
    static let version5 = """
        CREATE TABLE new_runs (
            id TEXT NOT NULL PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            manifest_name TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'failed', 'interrupted', 'canceled')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT,
            shard_count INTEGER NOT NULL CHECK (shard_count >= 0),
            file_count INTEGER NOT NULL CHECK (file_count >= 0),
            skipped_count INTEGER NOT NULL CHECK (skipped_count >= 0),
            bytes INTEGER NOT NULL CHECK (bytes >= 0)
        );
        INSERT INTO new_runs SELECT id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at,
            finished_at, shard_count, file_count, skipped_count, bytes FROM runs;
        DROP TABLE runs;
        ALTER TABLE new_runs RENAME TO runs;
        CREATE INDEX runs_by_manifest ON runs (manifest_path, recipe_fingerprint);
        """

    /// Schema version 6: the files each manifest's runs did under a recipe, with their outputs, apart from the
    /// runs, so that a run's incremental plan reads one row a file instead of every earlier run's rows, and a
    /// pruned run's files stay known (with outputs to check) while later runs still skip them.
    ///
    /// Filled from the runs already recorded: each file's latest `done` row and that run's downloaded
    /// results; `confirmed_at` is the latest run that did or skipped it. A file that only skipped rows
    /// name (the run that did it was pruned) is not carried over: it runs once more.
    static let version6 = """
        CREATE TABLE done_files (
            id INTEGER PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified_ns INTEGER NOT NULL,
            run_id TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            UNIQUE (manifest_path, recipe_fingerprint, path, size, modified_ns)
        );
        CREATE INDEX done_files_by_confirmation ON done_files (confirmed_at);
        CREATE TABLE done_outputs (
            done_id INTEGER NOT NULL REFERENCES done_files (id) ON DELETE CASCADE,
            output_path TEXT NOT NULL,
            size INTEGER,
            md5 TEXT
        );
        CREATE INDEX done_outputs_by_file ON done_outputs (done_id);

        INSERT INTO done_files (manifest_path, recipe_fingerprint, path, size, modified_ns, run_id, confirmed_at)
        SELECT runs.manifest_path, runs.recipe_fingerprint, f.path, f.size, f.modified_ns, f.run_id, runs.created_at
        FROM runs CROSS JOIN files f ON f.run_id = runs.id AND f.state = 'done'
        WHERE true
        ORDER BY runs.created_at, runs.id
        ON CONFLICT (manifest_path, recipe_fingerprint, path, size, modified_ns)
            DO UPDATE SET run_id = excluded.run_id, confirmed_at = excluded.confirmed_at;

        INSERT INTO done_files (manifest_path, recipe_fingerprint, path, size, modified_ns, run_id, confirmed_at)
        SELECT runs.manifest_path, runs.recipe_fingerprint, f.path, f.size, f.modified_ns, f.run_id, runs.created_at
        FROM runs CROSS JOIN files f ON f.run_id = runs.id AND f.state = 'skipped'
        WHERE EXISTS (SELECT 1 FROM done_files d
                      WHERE d.manifest_path = runs.manifest_path AND d.recipe_fingerprint = runs.recipe_fingerprint
                        AND d.path = f.path AND d.size = f.size AND d.modified_ns = f.modified_ns)
        ON CONFLICT (manifest_path, recipe_fingerprint, path, size, modified_ns)
            DO UPDATE SET confirmed_at = max(confirmed_at, excluded.confirmed_at);

        INSERT INTO done_outputs (done_id, output_path, size, md5)
        SELECT d.id, r.output_path, r.size, r.md5
        FROM runs CROSS JOIN files f ON f.run_id = runs.id AND f.state = 'done'
        CROSS JOIN done_files d ON d.manifest_path = runs.manifest_path AND d.recipe_fingerprint = runs.recipe_fingerprint
            AND d.path = f.path AND d.size = f.size AND d.modified_ns = f.modified_ns AND d.run_id = f.run_id
        CROSS JOIN results r ON r.run_id = f.run_id AND r.file_index = f.file_index AND r.state = 'downloaded'
            AND r.attempt = (SELECT max(attempt) FROM attempts a
                             WHERE a.run_id = f.run_id AND a.shard_index = f.shard_index AND a.outcome = 'completed')
        ORDER BY d.id, r.id;
        """

    /// Schema version 7: which inputs of its Assembly each result was made from (`source`: `file`, `several`,
    /// `unmatched`), and for a result of several, which (`result_inputs`). Only a result of the file's own, or
    /// of several that name it, makes a file done; one that names no input of its Assembly counts for none.
    ///
    /// Earlier results without a file were taken as made from every file of their shard, and are kept so.
    static let version7 = """
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

    /// Schema version 8: files a run failed for a reason of their own (`known_bad` in later runs, in no
    /// shard, like `skipped`), and their index apart from the runs (`bad_files`), as the done index is:
    /// a file the service said it cannot process, unchanged since, is not sent again by the next run.
    ///
    /// The files table is rebuilt for its CHECKs. Earlier failures are not carried over: which of them
    /// were a file's own was not recorded, so each runs once more and is entered then.
    static let version8 = """
        CREATE TABLE new_files (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            file_index INTEGER NOT NULL CHECK (file_index >= 0),
            shard_index INTEGER,
            path TEXT NOT NULL,
            relative_path TEXT NOT NULL,
            size INTEGER NOT NULL CHECK (size >= 0),
            modified_ns INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'no_result', 'failed', 'skipped', 'known_bad')),
            error_code TEXT,
            error_message TEXT,
            retryable INTEGER CHECK (retryable IN (0, 1)),
            PRIMARY KEY (run_id, file_index),
            FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE,
            CHECK ((shard_index IS NULL) = (state IN ('skipped', 'known_bad')))
        );
        INSERT INTO new_files SELECT run_id, file_index, shard_index, path, relative_path, size, modified_ns, state,
            error_code, error_message, retryable FROM files;
        DROP TABLE files;
        ALTER TABLE new_files RENAME TO files;
        CREATE INDEX files_by_shard ON files (run_id, shard_index);
        CREATE INDEX files_by_state ON files (run_id, state);

        CREATE TABLE bad_files (
            id INTEGER PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified_ns INTEGER NOT NULL,
            run_id TEXT NOT NULL,
            error_code TEXT NOT NULL,
            error_message TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            UNIQUE (manifest_path, recipe_fingerprint, path, size, modified_ns)
        );
        CREATE INDEX bad_files_by_confirmation ON bad_files (confirmed_at);
        """

    /// Schema version 9: a shard's files in file order from their own index. With `(run_id, shard_index)`
    /// alone SQLite read a shard's files through the primary key, to spare the sort, which reads every
    /// file of the run (82% of a 100,000-file run's CPU). `files_by_state` stays `(run_id, state)`: with
    /// `file_index` after the state SQLite took it for a shard's files in one state, all the run's.
    static let version9 = """
        DROP INDEX files_by_shard;
        CREATE INDEX files_by_shard ON files (run_id, shard_index, file_index);
        """

    /// Schema version 10: the done index's files under a set (manifest and recipe, kept once, not in every
    /// row and its unique index), and confirmation by exception. A night wrote a row for each file it
    /// skipped (200,000 updates of text keys and of the confirmation index: 1.9 s of a no-op night); now
    /// the set records when it was last reviewed and each file when a review first missed it
    /// (``DoneIndexReview``): a file not missed was confirmed by the set's latest review. Carried over
    /// with no review and nothing missed, each file's confirmation is its `confirmed_at`, as before.
    static let version10 = """
        CREATE TABLE done_sets (
            id INTEGER PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            reviewed_at TEXT,
            UNIQUE (manifest_path, recipe_fingerprint)
        );
        INSERT INTO done_sets (manifest_path, recipe_fingerprint)
        SELECT DISTINCT manifest_path, recipe_fingerprint FROM done_files ORDER BY manifest_path, recipe_fingerprint;
        CREATE TABLE new_done_files (
            id INTEGER PRIMARY KEY,
            set_id INTEGER NOT NULL REFERENCES done_sets (id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified_ns INTEGER NOT NULL,
            run_id TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            missed_at TEXT,
            UNIQUE (set_id, path, size, modified_ns)
        );
        INSERT INTO new_done_files (id, set_id, path, size, modified_ns, run_id, confirmed_at)
        SELECT d.id, s.id, d.path, d.size, d.modified_ns, d.run_id, d.confirmed_at
        FROM done_files d CROSS JOIN done_sets s ON s.manifest_path = d.manifest_path AND s.recipe_fingerprint = d.recipe_fingerprint
        ORDER BY d.id;
        DROP TABLE done_files;
        ALTER TABLE new_done_files RENAME TO done_files;
        """

    /// Schema version 11: the batch a run belongs to and the part of its files it took (issue 23), so that
    /// the ledgers of a night's partitions can be merged and checked. Earlier runs are of no batch, whole.
    static let version11 = """
        ALTER TABLE runs ADD COLUMN batch_id TEXT;
        ALTER TABLE runs ADD COLUMN partition_index INTEGER NOT NULL DEFAULT 0 CHECK (partition_index >= 0);
        ALTER TABLE runs ADD COLUMN partition_count INTEGER NOT NULL DEFAULT 1 CHECK (partition_count >= 1);
        CREATE INDEX runs_by_batch ON runs (batch_id) WHERE batch_id IS NOT NULL;
        """

    /// Schema version 12: when each attempt was signed, uploaded, downloaded or failed (the report's timeline),
    /// and what its Assembly said it cost (`bytes_usage`) and how long it queued and ran. NULL is
    /// unknown: an attempt before this version, or a service that did not say.
    static let version12 = """
        ALTER TABLE attempts ADD COLUMN signed_at TEXT;
        ALTER TABLE attempts ADD COLUMN uploaded_at TEXT;
        ALTER TABLE attempts ADD COLUMN downloaded_at TEXT;
        ALTER TABLE attempts ADD COLUMN failed_at TEXT;
        ALTER TABLE attempts ADD COLUMN bytes_usage INTEGER CHECK (bytes_usage >= 0);
        ALTER TABLE attempts ADD COLUMN queue_duration REAL CHECK (queue_duration >= 0);
        ALTER TABLE attempts ADD COLUMN execution_duration REAL CHECK (execution_duration >= 0);
        """
}
