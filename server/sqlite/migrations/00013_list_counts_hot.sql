-- PostgreSQL's 00013_list_counts_hot.sql changes how its counters are
-- stored on disk; SQLite's need nothing. This keeps the numbers of both
-- dialects' migrations in step.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
