-- A TOTP enrolment that a signed-in user starts from the dashboard's
-- Account page (issue 12): the secret offered, sealed like totp_secret,
-- until it is confirmed with a code or expires. Starting again replaces
-- it; confirming moves it to totp_secret.

-- +goose Up
ALTER TABLE idp_accounts ADD COLUMN totp_pending bytea;
ALTER TABLE idp_accounts ADD COLUMN totp_pending_expires_at timestamptz;

-- +goose Down
ALTER TABLE idp_accounts DROP COLUMN totp_pending_expires_at;
ALTER TABLE idp_accounts DROP COLUMN totp_pending;
