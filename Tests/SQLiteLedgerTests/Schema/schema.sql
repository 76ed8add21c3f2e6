-- The schema of a fresh ledger as sqlite_schema holds it: each table, then its indexes and triggers, by name.
-- LedgerSchemaTests compares it with a ledger SQLiteLedger.open creates. After a new migration, write it anew
-- with `ASSEMBLYLINE_WRITE_SCHEMA=1 swift test --filter LedgerSchemaTests` and review the difference.

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
    retryable INTEGER CHECK (retryable IN (0, 1)), bytes_sent INTEGER NOT NULL DEFAULT 0 CHECK (bytes_sent >= 0), signed_at TEXT, uploaded_at TEXT, downloaded_at TEXT, failed_at TEXT, bytes_usage INTEGER CHECK (bytes_usage >= 0), queue_duration REAL CHECK (queue_duration >= 0), execution_duration REAL CHECK (execution_duration >= 0), parent_assembly_id TEXT
    CHECK (length(parent_assembly_id) = 32 AND parent_assembly_id NOT GLOB '*[^0-9a-f]*'), failed_executing INTEGER NOT NULL DEFAULT 0 CHECK (failed_executing IN (0, 1)),
    PRIMARY KEY (run_id, shard_index, attempt),
    FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE
);

CREATE UNIQUE INDEX attempts_one_open ON attempts (run_id, shard_index) WHERE outcome = 'open';

CREATE TABLE "bad_files" (
    id INTEGER PRIMARY KEY,
    job_key TEXT NOT NULL,
    recipe_fingerprint TEXT NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    modified_ns INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    error_code TEXT NOT NULL,
    error_message TEXT NOT NULL,
    confirmed_at TEXT NOT NULL,
    UNIQUE (job_key, recipe_fingerprint, path, size, modified_ns)
);

CREATE INDEX bad_files_by_confirmation ON bad_files (confirmed_at);

CREATE TABLE "done_files" (
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

CREATE TABLE done_outputs (
    done_id INTEGER NOT NULL REFERENCES done_files (id) ON DELETE CASCADE,
    output_path TEXT NOT NULL,
    size INTEGER,
    md5 TEXT
);

CREATE INDEX done_outputs_by_file ON done_outputs (done_id);

CREATE TABLE "done_sets" (
    id INTEGER PRIMARY KEY,
    job_key TEXT NOT NULL,
    recipe_fingerprint TEXT NOT NULL,
    manifest_path TEXT NOT NULL,
    reviewed_at TEXT,
    UNIQUE (job_key, recipe_fingerprint)
);

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

CREATE TABLE "files" (
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

CREATE INDEX files_by_shard ON files (run_id, shard_index, file_index);

CREATE INDEX files_by_state ON files (run_id, state);

CREATE TABLE migrations (
    id TEXT NOT NULL PRIMARY KEY,
    applied_at TEXT NOT NULL
);

CREATE TABLE result_inputs (
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    run_id TEXT NOT NULL,
    file_index INTEGER NOT NULL,
    PRIMARY KEY (result_id, file_index),
    FOREIGN KEY (run_id, file_index) REFERENCES files (run_id, file_index) ON DELETE CASCADE
);

CREATE INDEX result_inputs_by_file ON result_inputs (run_id, file_index);

CREATE TABLE "results" (
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
    fetches INTEGER NOT NULL DEFAULT 0 CHECK (fetches >= 0), source TEXT NOT NULL DEFAULT 'file' CHECK (source IN ('file', 'several', 'unmatched')),
    FOREIGN KEY (run_id, shard_index, attempt) REFERENCES attempts (run_id, shard_index, attempt)
        ON DELETE CASCADE,
    FOREIGN KEY (run_id, file_index) REFERENCES files (run_id, file_index) ON DELETE CASCADE,
    CHECK ((state = 'downloaded') = (downloaded_at IS NOT NULL)),
    CHECK ((state IN ('pending', 'downloaded')) = (output_path IS NOT NULL AND url IS NOT NULL))
);

CREATE INDEX results_by_file ON results (run_id, file_index);

CREATE INDEX results_by_shard ON results (run_id, shard_index, attempt);

CREATE TABLE "runs" (
    id TEXT NOT NULL PRIMARY KEY,
    manifest_path TEXT NOT NULL,
    manifest_name TEXT NOT NULL,
    recipe_fingerprint TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'failed', 'interrupted', 'canceled', 'superseded')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT,
    shard_count INTEGER NOT NULL CHECK (shard_count >= 0),
    file_count INTEGER NOT NULL CHECK (file_count >= 0),
    skipped_count INTEGER NOT NULL CHECK (skipped_count >= 0),
    bytes INTEGER NOT NULL CHECK (bytes >= 0),
    batch_id TEXT,
    partition_index INTEGER NOT NULL DEFAULT 0 CHECK (partition_index >= 0),
    partition_count INTEGER NOT NULL DEFAULT 1 CHECK (partition_count >= 1),
    job_key TEXT NOT NULL,
    inputs_key TEXT NOT NULL DEFAULT '',
    superseded_by TEXT, template_id TEXT, template_sha256 TEXT
    CHECK (length(template_sha256) = 64 AND template_sha256 NOT GLOB '*[^0-9a-f]*'),
    CHECK ((state = 'superseded') = (superseded_by IS NOT NULL))
);

CREATE INDEX runs_by_batch ON runs (batch_id) WHERE batch_id IS NOT NULL;

CREATE INDEX runs_by_job ON runs (job_key, created_at);

CREATE INDEX runs_by_manifest ON runs (manifest_path, recipe_fingerprint);

CREATE INDEX runs_by_name ON runs (manifest_name, created_at);

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
    updated_at TEXT NOT NULL, fields TEXT CHECK (fields GLOB '{*}'),
    PRIMARY KEY (run_id, shard_index)
);

CREATE INDEX shards_by_state ON shards (run_id, state);

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
