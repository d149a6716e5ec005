-- The hourly statistics of 00016_stats.sql are no longer added in each
-- submission's statement: a rollup adds the submissions' *.created
-- events to them in batches, after a cursor per workspace (issue 10:
-- the statement's upserts cost PostgreSQL ingest about a sixth).
-- stats_cursors holds the seq of the last event of the workspace that
-- the counters hold; an instance advances it by compare-and-set in the
-- transaction that adds the batch, so each event counts once. Readers
-- add the events after the cursor to the counters, so that a statistic
-- includes every submission committed before it was read.
--
-- Every event before now was counted by the statement that wrote it, so
-- each workspace's cursor starts at its last event. Stop the instances
-- of earlier versions before this migration runs: a submission they
-- take after it would count twice.

-- +goose Up
CREATE TABLE stats_cursors (
    workspace_id uuid   PRIMARY KEY REFERENCES workspaces (id),
    seq          bigint NOT NULL
);

LOCK TABLE hygiene_submissions, review_responses, survey_responses IN SHARE MODE;

INSERT INTO stats_cursors (workspace_id, seq)
SELECT w.id, COALESCE((SELECT MAX(e.seq) FROM events e WHERE e.workspace_id = w.id), 0)
FROM workspaces w;

-- +goose Down
DROP TABLE stats_cursors;
