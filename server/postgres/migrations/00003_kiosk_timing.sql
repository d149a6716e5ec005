-- How a kiosk paces its visitors, chosen with its pairing code: the
-- thank-you screen, the idle reset and the least time between two
-- submissions, in seconds. Existing rows get the defaults.

-- +goose Up
ALTER TABLE kiosk_pairing_codes ADD COLUMN reset_seconds integer NOT NULL DEFAULT 5;
ALTER TABLE kiosk_pairing_codes ADD COLUMN idle_seconds integer NOT NULL DEFAULT 30;
ALTER TABLE kiosk_pairing_codes ADD COLUMN interval_seconds integer NOT NULL DEFAULT 3;
ALTER TABLE kiosks ADD COLUMN reset_seconds integer NOT NULL DEFAULT 5;
ALTER TABLE kiosks ADD COLUMN idle_seconds integer NOT NULL DEFAULT 30;
ALTER TABLE kiosks ADD COLUMN interval_seconds integer NOT NULL DEFAULT 3;

-- +goose Down
ALTER TABLE kiosks DROP COLUMN interval_seconds;
ALTER TABLE kiosks DROP COLUMN idle_seconds;
ALTER TABLE kiosks DROP COLUMN reset_seconds;
ALTER TABLE kiosk_pairing_codes DROP COLUMN interval_seconds;
ALTER TABLE kiosk_pairing_codes DROP COLUMN idle_seconds;
ALTER TABLE kiosk_pairing_codes DROP COLUMN reset_seconds;
