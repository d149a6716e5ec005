-- The embedded OpenID provider (server/idp), which serves sign-in when no
-- external issuer is configured: its accounts, the organisation-wide MFA
-- switch, its signing keys, sign-ins in progress, the tokens it issued,
-- login throttling and set-password links. Secrets are sealed with the
-- service keyring (signing private keys, TOTP secrets); credentials that
-- are handed out (codes, refresh tokens, links, enrolment tickets) are
-- stored as SHA-256 hashes only. Every instance of the service reads the
-- same rows, so keys, tokens and throttling hold across instances.

-- +goose Up
CREATE TABLE idp_accounts (
    id               uuid        PRIMARY KEY,  -- the sub claim
    email            text        NOT NULL UNIQUE, -- lower case
    password_hash    text,                     -- argon2id, PHC string; NULL until set
    password_set_at  timestamptz,
    totp_secret      bytea,                    -- sealed; NULL without TOTP
    totp_last_step   bigint      NOT NULL,     -- the last time step accepted: each code counts once
    totp_enrolled_at timestamptz,
    created_at       timestamptz NOT NULL
);

-- One row: the organisation-wide switch that makes a second factor
-- mandatory.
CREATE TABLE idp_settings (
    id           integer PRIMARY KEY CHECK (id = 1),
    mfa_required boolean NOT NULL
);
INSERT INTO idp_settings (id, mfa_required) VALUES (1, false);

-- ID token signing keys, newest generation first in use. Two instances
-- that rotate at once insert the same generation: one wins, the other
-- reads the winner's key.
CREATE TABLE idp_signing_keys (
    generation  integer     PRIMARY KEY,
    kid         text        NOT NULL UNIQUE, -- RFC 7638 thumbprint
    algorithm   text        NOT NULL,
    public_key  bytea       NOT NULL,        -- PKIX DER
    private_key bytea       NOT NULL,        -- PKCS #8 DER, sealed
    created_at  timestamptz NOT NULL
);

-- An authorization request from its redirect to the login page until its
-- code is spent. account_id and password_at are set by the password step,
-- auth_time and amr when the sign-in is complete; code_hash when the code
-- is issued, code_used_at when it is exchanged. The row outlives the
-- exchange, so that a reused code can revoke what it was exchanged for.
CREATE TABLE idp_auth_requests (
    id                    text        PRIMARY KEY,
    client_id             text        NOT NULL,
    redirect_uri          text        NOT NULL,
    scopes                text        NOT NULL, -- space-separated
    state                 text        NOT NULL,
    nonce                 text        NOT NULL,
    response_type         text        NOT NULL,
    response_mode         text        NOT NULL,
    code_challenge        text        NOT NULL,
    code_challenge_method text        NOT NULL,
    account_id            uuid        REFERENCES idp_accounts (id) ON DELETE CASCADE,
    password_at           timestamptz,
    auth_time             timestamptz,
    amr                   text        NOT NULL, -- space-separated
    code_hash             bytea       UNIQUE,
    code_expires_at       timestamptz,
    code_used_at          timestamptz,
    created_at            timestamptz NOT NULL,
    expires_at            timestamptz NOT NULL
);
CREATE INDEX idp_auth_requests_expiry ON idp_auth_requests (expires_at);

-- Refresh tokens, rotated at each use. auth_request_id names the sign-in
-- they descend from.
CREATE TABLE idp_refresh_tokens (
    id              text        PRIMARY KEY,
    hash            bytea       NOT NULL UNIQUE,
    client_id       text        NOT NULL,
    account_id      uuid        NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
    auth_request_id text        NOT NULL,
    scopes          text        NOT NULL,
    amr             text        NOT NULL,
    auth_time       timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL
);
CREATE INDEX idp_refresh_tokens_account ON idp_refresh_tokens (account_id, client_id);
CREATE INDEX idp_refresh_tokens_expiry ON idp_refresh_tokens (expires_at);

-- Access tokens. The bearer value is the token's id and subject sealed
-- with the keyring; the row is what revocation deletes.
CREATE TABLE idp_access_tokens (
    id               text        PRIMARY KEY,
    client_id        text        NOT NULL,
    account_id       uuid        NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
    auth_request_id  text        NOT NULL,
    refresh_token_id text,
    scopes           text        NOT NULL,
    created_at       timestamptz NOT NULL,
    expires_at       timestamptz NOT NULL
);
CREATE INDEX idp_access_tokens_account ON idp_access_tokens (account_id, client_id);
CREATE INDEX idp_access_tokens_refresh ON idp_access_tokens (refresh_token_id);
CREATE INDEX idp_access_tokens_expiry ON idp_access_tokens (expires_at);

-- Failed sign-ins per key: "email:" and the SHA-256 of the address typed
-- (known or not), or "ip:" and the client address. A key with too many
-- failures is locked until locked_until; its count starts again once
-- quiet_after has passed without a failure.
CREATE TABLE idp_throttle (
    key             text        PRIMARY KEY,
    failures        integer     NOT NULL,
    last_failure_at timestamptz NOT NULL,
    locked_until    timestamptz,
    quiet_after     timestamptz NOT NULL
);
CREATE INDEX idp_throttle_quiet ON idp_throttle (quiet_after);

-- Set-password links (by the hash of their token) and, once a link is
-- used, the TOTP enrolment it may continue with: a ticket (by hash) and
-- the pending secret, sealed.
CREATE TABLE idp_password_links (
    hash             bytea       PRIMARY KEY,
    account_id       uuid        NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
    created_at       timestamptz NOT NULL,
    expires_at       timestamptz NOT NULL,
    used_at          timestamptz,
    enrol_hash       bytea       UNIQUE,
    enrol_secret     bytea,
    enrol_expires_at timestamptz
);
CREATE INDEX idp_password_links_account ON idp_password_links (account_id);

-- +goose Down
DROP TABLE idp_password_links;
DROP TABLE idp_throttle;
DROP TABLE idp_access_tokens;
DROP TABLE idp_refresh_tokens;
DROP TABLE idp_auth_requests;
DROP TABLE idp_signing_keys;
DROP TABLE idp_settings;
DROP TABLE idp_accounts;
