-- The hourly counters are updated by every submission: a key without
-- the count in it (it was INCLUDE (n), for index-only sums, which the
-- cache of closed hours made unneeded) and room left in each page let
-- PostgreSQL update a counter in place (a HOT update) instead of writing
-- a new index entry per submission. Shards are now the writer's backend
-- id modulo 64 (issue 10), so an hour holds at most 64 rows a series.

-- +goose Up
ALTER TABLE list_counts DROP CONSTRAINT list_counts_pkey;
ALTER TABLE list_counts ADD PRIMARY KEY (workspace_id, list, scope, bucket, shard);
ALTER TABLE list_counts SET (fillfactor = 50);

-- +goose Down
ALTER TABLE list_counts RESET (fillfactor);
ALTER TABLE list_counts DROP CONSTRAINT list_counts_pkey;
ALTER TABLE list_counts ADD PRIMARY KEY (workspace_id, list, scope, bucket, shard) INCLUDE (n);
