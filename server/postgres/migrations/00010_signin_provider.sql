-- Dashboard sessions keep more of the identity provider's answer (issue
-- 8): the latest ID token, sealed like the refresh token, for the
-- id_token_hint of an RP-initiated logout; and when a renewal was
-- claimed, so that of several requests renewing one session at once only
-- the first asks the provider for new tokens (ClaimRenewal). A sign-in at
-- the embedded provider remembers whether its client asked for a second
-- factor (acr_values).

-- +goose Up
ALTER TABLE sessions ADD COLUMN provider_id_token bytea;
ALTER TABLE sessions ADD COLUMN renewing_at timestamptz;
ALTER TABLE idp_auth_requests ADD COLUMN mfa_requested boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE idp_auth_requests DROP COLUMN mfa_requested;
ALTER TABLE sessions DROP COLUMN renewing_at;
ALTER TABLE sessions DROP COLUMN provider_id_token;
