-- A ledger as AssemblyLine's schema version 1 wrote it, holding one interrupted run: `sqlite3 ledger.sqlite .dump`
-- of a file migrated through v1-runs-shards-files-attempts-results-events alone, its rows (and that migration's
-- applied_at) entered with sqlite3.
-- Shard 0 is downloaded (a.mov and b.mov done, three results, one of them a zip of both with no file); shard 1
-- has a failed attempt and an open one (c.mov pending); d.mov was skipped. LedgerSchemaTests loads it into a new
-- file and opens that with the current code, which applies every later migration. Never regenerate it: it is
-- what version 1 wrote.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE migrations (
    id TEXT NOT NULL PRIMARY KEY,
    applied_at TEXT NOT NULL
);
INSERT INTO migrations VALUES('v1-runs-shards-files-attempts-results-events','2026-11-30T21:05:00.512Z');
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
INSERT INTO runs VALUES('20261130T210501Z-3f9a2c','/etc/nightly.yaml','nightly','sha256:r','interrupted','2026-11-30T21:05:01.000Z','2026-11-30T21:06:00.000Z','2026-11-30T21:06:00.000Z',2,3,1,600);
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
INSERT INTO shards VALUES('20261130T210501Z-3f9a2c',0,'downloaded',2,300,1,NULL,NULL,NULL,'2026-11-30T21:05:57.000Z');
INSERT INTO shards VALUES('20261130T210501Z-3f9a2c',1,'created',1,300,2,NULL,NULL,NULL,'2026-11-30T21:05:41.000Z');
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
INSERT INTO files VALUES('20261130T210501Z-3f9a2c',0,0,'/in/a.mov','a.mov',100,1700000000000000000,'done',NULL,NULL,NULL);
INSERT INTO files VALUES('20261130T210501Z-3f9a2c',1,0,'/in/b.mov','b.mov',200,1700000000000000001,'done',NULL,NULL,NULL);
INSERT INTO files VALUES('20261130T210501Z-3f9a2c',2,1,'/in/c.mov','c.mov',300,1700000000000000002,'pending',NULL,NULL,NULL);
INSERT INTO files VALUES('20261130T210501Z-3f9a2c',3,NULL,'/in/d.mov','d.mov',400,1700000000000000003,'skipped',NULL,NULL,NULL);
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
INSERT INTO attempts VALUES('20261130T210501Z-3f9a2c',0,1,'4723718834074932b22a59b209220018','completed','2026-11-30T21:05:10.000Z','http://127.0.0.1:9442/assemblies/4723718834074932b22a59b209220018','http://127.0.0.1:9442/resumable/files/','2026-11-30T21:05:12.000Z','2026-11-30T21:05:50.000Z',NULL,NULL,NULL);
INSERT INTO attempts VALUES('20261130T210501Z-3f9a2c',1,1,'5b0e3a1f9c2d4e8fa6b7c8d9e0f1a2b3','failed','2026-11-30T21:05:11.000Z',NULL,NULL,NULL,NULL,'HTTP_503','service unavailable',1);
INSERT INTO attempts VALUES('20261130T210501Z-3f9a2c',1,2,'6c1f4b2a0d3e5f9ab7c8d9e0f1a2b3c4','open','2026-11-30T21:05:40.000Z','http://127.0.0.1:9442/assemblies/6c1f4b2a0d3e5f9ab7c8d9e0f1a2b3c4','http://127.0.0.1:9442/resumable/files/','2026-11-30T21:05:41.000Z',NULL,NULL,NULL,NULL);
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
INSERT INTO results VALUES(1,'20261130T210501Z-3f9a2c',0,1,0,'thumb','r0','a.jpg','https://tmp/r0',10,'m0','image/jpeg',64,48,'/out/a.jpg','downloaded','2026-11-30T21:05:55.000Z');
INSERT INTO results VALUES(2,'20261130T210501Z-3f9a2c',0,1,1,'thumb','r1','b.jpg','https://tmp/r1',20,NULL,'image/jpeg',64,48,'/out/b.jpg','downloaded','2026-11-30T21:05:56.000Z');
INSERT INTO results VALUES(3,'20261130T210501Z-3f9a2c',0,1,NULL,'zip','r2','all.zip','https://tmp/r2',30,'m2','application/zip',NULL,NULL,'/out/all.zip','downloaded','2026-11-30T21:05:57.000Z');
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    shard_index INTEGER,
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE
);
INSERT INTO events VALUES(1,'20261130T210501Z-3f9a2c',NULL,'2026-11-30T21:05:01.000Z','run.created','2 shards, 3 files, 1 skipped');
INSERT INTO events VALUES(2,'20261130T210501Z-3f9a2c',1,'2026-11-30T21:05:20.000Z','shard.state','signed → failed: HTTP_503: service unavailable');
INSERT INTO events VALUES(3,'20261130T210501Z-3f9a2c',0,'2026-11-30T21:05:57.000Z','shard.state','completed → downloaded');
INSERT INTO events VALUES(4,'20261130T210501Z-3f9a2c',NULL,'2026-11-30T21:06:00.000Z','run.state','running → interrupted');
CREATE INDEX runs_by_manifest ON runs (manifest_path, recipe_fingerprint);
CREATE INDEX shards_by_state ON shards (run_id, state);
CREATE INDEX files_by_shard ON files (run_id, shard_index);
CREATE INDEX files_by_state ON files (run_id, state);
CREATE UNIQUE INDEX attempts_one_open ON attempts (run_id, shard_index) WHERE outcome = 'open';
CREATE INDEX results_by_shard ON results (run_id, shard_index, attempt);
CREATE INDEX results_by_file ON results (run_id, file_index);
CREATE INDEX events_by_run ON events (run_id, shard_index);
COMMIT;
