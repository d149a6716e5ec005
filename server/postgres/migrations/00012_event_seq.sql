-- Events are numbered without a per-workspace counter (issue 10): a new
-- event's seq is its transaction's id (pg_current_xact_id(), which never
-- wraps) times 1024 plus the event's ordinal within its transaction, and
-- readers read only below the oldest transaction still running (see
-- server/sqlstore, Dialect.EventSeq and EventHorizon). Writers of one
-- workspace no longer take turns on its event_sequences row.
--
-- Every seq written so far is below the first new one: a transaction
-- wrote at most a handful of events, so the number of events, hence the
-- greatest per-workspace seq, is far below 1024 times the number of
-- transactions so far. The check makes the migration fail otherwise
-- (after a dump was restored into a new cluster, whose transaction ids
-- start again from a few hundred).
--
-- The hourly counters of list_counts get shards for the same reason:
-- each submission added one to its series' row of the hour, whose lock
-- it held until its commit, so a workspace's submissions still took
-- turns. A writer now adds to the first shard of the hour that no other
-- transaction holds (FOR UPDATE SKIP LOCKED), or to a new one; totals
-- sum over the shards as they summed over the hours (the read needs no
-- change). The existing rows become shard 0.

-- +goose Up
-- +goose StatementBegin
DO $$
BEGIN
    IF (SELECT COALESCE(MAX(seq), 0) FROM events) >= pg_current_xact_id()::text::bigint * 1024 THEN
        RAISE EXCEPTION 'events hold a seq above the transaction ids times 1024';
    END IF;
END
$$;
-- +goose StatementEnd
DROP TABLE event_sequences;

ALTER TABLE list_counts ADD COLUMN shard integer NOT NULL DEFAULT 0;
ALTER TABLE list_counts DROP CONSTRAINT list_counts_pkey;
ALTER TABLE list_counts ADD PRIMARY KEY (workspace_id, list, scope, bucket, shard) INCLUDE (n);

-- +goose Down
ALTER TABLE list_counts DROP CONSTRAINT list_counts_pkey;
WITH merged AS (DELETE FROM list_counts RETURNING workspace_id, list, scope, bucket, n)
INSERT INTO list_counts (workspace_id, list, scope, bucket, n, shard)
SELECT workspace_id, list, scope, bucket, SUM(n), 0 FROM merged GROUP BY 1, 2, 3, 4;
ALTER TABLE list_counts DROP COLUMN shard;
ALTER TABLE list_counts ADD PRIMARY KEY (workspace_id, list, scope, bucket) INCLUDE (n);

CREATE TABLE event_sequences (
    workspace_id uuid   PRIMARY KEY REFERENCES workspaces (id),
    seq          bigint NOT NULL
);
INSERT INTO event_sequences (workspace_id, seq)
SELECT w.id, COALESCE((SELECT MAX(e.seq) FROM events e WHERE e.workspace_id = w.id), 0) FROM workspaces w;
