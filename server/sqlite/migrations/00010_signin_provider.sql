-- Sessions' ID token and renewal claim, and the embedded provider's
-- requested second factor, as in PostgreSQL's 00010_signin_provider.sql
-- (see there for what each holds), in the types of 00001: timestamptz
-- INTEGER microseconds in a column declared TIMESTAMP, bytea BLOB,
-- booleans 0/1.

-- +goose Up
ALTER TABLE sessions ADD COLUMN provider_id_token BLOB;
ALTER TABLE sessions ADD COLUMN renewing_at TIMESTAMP;
ALTER TABLE idp_auth_requests ADD COLUMN mfa_requested INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE idp_auth_requests DROP COLUMN mfa_requested;
ALTER TABLE sessions DROP COLUMN renewing_at;
ALTER TABLE sessions DROP COLUMN provider_id_token;
