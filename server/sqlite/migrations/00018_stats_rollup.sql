-- The rollup of the hourly statistics, as in PostgreSQL's
-- 00018_stats_rollup.sql.

-- +goose Up
CREATE TABLE stats_cursors (
    workspace_id TEXT    NOT NULL PRIMARY KEY REFERENCES workspaces (id),
    seq          INTEGER NOT NULL
);

INSERT INTO stats_cursors (workspace_id, seq)
SELECT w.id, COALESCE((SELECT MAX(e.seq) FROM events e WHERE e.workspace_id = w.id), 0)
FROM workspaces w;

-- +goose Down
DROP TABLE stats_cursors;
