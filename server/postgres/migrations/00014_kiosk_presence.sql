-- Kiosk presence (issue 11): whether a kiosk is online is kept, not
-- computed from last_seen_at at each read, so that going online and
-- going offline are changes that emit kiosk.online and kiosk.offline
-- once each, whichever instance sees them. A heartbeat or sync of a kiosk
-- not marked online marks it and emits kiosk.online; the sweep marks
-- offline, with kiosk.offline, each kiosk marked online whose last
-- contact is three minutes old (see server/sqlstore, kiosk_presence.go).
--
-- Existing kiosks start offline, with no event: those still running
-- become online, with kiosk.online, at their next heartbeat, within a
-- minute. The partial index holds only the kiosks marked online, which
-- is all the sweep reads.

-- +goose Up
ALTER TABLE kiosks ADD COLUMN online boolean NOT NULL DEFAULT false;
CREATE INDEX kiosks_online ON kiosks (last_seen_at) WHERE online;

-- +goose Down
DROP INDEX kiosks_online;
ALTER TABLE kiosks DROP COLUMN online;
