-- Events are numbered without a counter table (issue 10), as in
-- PostgreSQL's 00012_event_seq.sql: on SQLite a new event's seq is the
-- workspace's greatest seq plus one, taken inside the write transaction,
-- which SQLite's single writer already orders. list_counts gets the
-- column shard of PostgreSQL's migration (always 0 here: SQLite's
-- writers take turns anyway); a WITHOUT ROWID table cannot change its
-- key, so it is made again and its rows copied.

-- +goose Up
DROP TABLE event_sequences;

CREATE TABLE list_counts_new (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id),
    list         TEXT      NOT NULL,
    scope        TEXT      NOT NULL,
    bucket       TIMESTAMP NOT NULL,
    n            INTEGER   NOT NULL,
    shard        INTEGER   NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, list, scope, bucket, shard)
) WITHOUT ROWID;
INSERT INTO list_counts_new (workspace_id, list, scope, bucket, n)
SELECT workspace_id, list, scope, bucket, n FROM list_counts;
DROP TABLE list_counts;
ALTER TABLE list_counts_new RENAME TO list_counts;

-- +goose Down
CREATE TABLE list_counts_old (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id),
    list         TEXT      NOT NULL,
    scope        TEXT      NOT NULL,
    bucket       TIMESTAMP NOT NULL,
    n            INTEGER   NOT NULL,
    PRIMARY KEY (workspace_id, list, scope, bucket)
) WITHOUT ROWID;
INSERT INTO list_counts_old (workspace_id, list, scope, bucket, n)
SELECT workspace_id, list, scope, bucket, SUM(n) FROM list_counts GROUP BY 1, 2, 3, 4;
DROP TABLE list_counts;
ALTER TABLE list_counts_old RENAME TO list_counts;

CREATE TABLE event_sequences (
    workspace_id TEXT    NOT NULL PRIMARY KEY REFERENCES workspaces (id),
    seq          INTEGER NOT NULL
);
INSERT INTO event_sequences (workspace_id, seq)
SELECT w.id, COALESCE((SELECT MAX(e.seq) FROM events e WHERE e.workspace_id = w.id), 0) FROM workspaces w;
