-- Kiosk presence, as in PostgreSQL's 00014_kiosk_presence.sql: kiosks
-- get the column online (a boolean, 0 or 1), false for the existing
-- ones, and a partial index of the kiosks marked online for the sweep.

-- +goose Up
ALTER TABLE kiosks ADD COLUMN online INTEGER NOT NULL DEFAULT 0;
CREATE INDEX kiosks_online ON kiosks (last_seen_at) WHERE online;

-- +goose Down
DROP INDEX kiosks_online;
ALTER TABLE kiosks DROP COLUMN online;
