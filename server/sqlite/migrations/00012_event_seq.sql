-- Events are numbered without a counter table (issue 10), as in
-- PostgreSQL's 00012_event_seq.sql: on SQLite a new event's seq is the
-- workspace's greatest seq plus one, taken inside the write transaction,
-- which SQLite's single writer already orders.

-- +goose Up
DROP TABLE event_sequences;

-- +goose Down
CREATE TABLE event_sequences (
    workspace_id TEXT    NOT NULL PRIMARY KEY REFERENCES workspaces (id),
    seq          INTEGER NOT NULL
);
INSERT INTO event_sequences (workspace_id, seq)
SELECT w.id, COALESCE((SELECT MAX(e.seq) FROM events e WHERE e.workspace_id = w.id), 0) FROM workspaces w;
