-- SQLite's migration 00011 adds NOT NULL to the keys of tables whose
-- PRIMARY KEY columns SQLite left nullable; PostgreSQL's keys are never
-- NULL. Nothing to do here: the number keeps both dialects' migrations in
-- step.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
