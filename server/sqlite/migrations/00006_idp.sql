-- The embedded OpenID provider (server/idp), with the same tables,
-- columns and indexes as PostgreSQL's (see its 00006_idp.sql for what
-- each holds), in the types of 00001: uuid becomes TEXT, timestamptz
-- INTEGER microseconds in a column declared TIMESTAMP, bytea BLOB, and
-- booleans 0/1.

-- +goose Up
CREATE TABLE idp_accounts (
    id               TEXT      PRIMARY KEY,
    email            TEXT      NOT NULL UNIQUE,
    password_hash    TEXT,
    password_set_at  TIMESTAMP,
    totp_secret      BLOB,
    totp_last_step   INTEGER   NOT NULL,
    totp_enrolled_at TIMESTAMP,
    created_at       TIMESTAMP NOT NULL
);

CREATE TABLE idp_settings (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    mfa_required INTEGER NOT NULL
);
INSERT INTO idp_settings (id, mfa_required) VALUES (1, 0);

CREATE TABLE idp_signing_keys (
    generation  INTEGER   PRIMARY KEY,
    kid         TEXT      NOT NULL UNIQUE,
    algorithm   TEXT      NOT NULL,
    public_key  BLOB      NOT NULL,
    private_key BLOB      NOT NULL,
    created_at  TIMESTAMP NOT NULL
);

CREATE TABLE idp_auth_requests (
    id                    TEXT      PRIMARY KEY,
    client_id             TEXT      NOT NULL,
    redirect_uri          TEXT      NOT NULL,
    scopes                TEXT      NOT NULL,
    state                 TEXT      NOT NULL,
    nonce                 TEXT      NOT NULL,
    response_type         TEXT      NOT NULL,
    response_mode         TEXT      NOT NULL,
    code_challenge        TEXT      NOT NULL,
    code_challenge_method TEXT      NOT NULL,
    account_id            TEXT      REFERENCES idp_accounts (id) ON DELETE CASCADE,
    password_at           TIMESTAMP,
    auth_time             TIMESTAMP,
    amr                   TEXT      NOT NULL,
    code_hash             BLOB      UNIQUE,
    code_expires_at       TIMESTAMP,
    code_used_at          TIMESTAMP,
    created_at            TIMESTAMP NOT NULL,
    expires_at            TIMESTAMP NOT NULL
);
CREATE INDEX idp_auth_requests_expiry ON idp_auth_requests (expires_at);

CREATE TABLE idp_refresh_tokens (
    id              TEXT      PRIMARY KEY,
    hash            BLOB      NOT NULL UNIQUE,
    client_id       TEXT      NOT NULL,
    account_id      TEXT      NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
    auth_request_id TEXT      NOT NULL,
    scopes          TEXT      NOT NULL,
    amr             TEXT      NOT NULL,
    auth_time       TIMESTAMP NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL
);
CREATE INDEX idp_refresh_tokens_account ON idp_refresh_tokens (account_id, client_id);
CREATE INDEX idp_refresh_tokens_expiry ON idp_refresh_tokens (expires_at);

CREATE TABLE idp_access_tokens (
    id               TEXT      PRIMARY KEY,
    client_id        TEXT      NOT NULL,
    account_id       TEXT      NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
    auth_request_id  TEXT      NOT NULL,
    refresh_token_id TEXT,
    scopes           TEXT      NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    expires_at       TIMESTAMP NOT NULL
);
CREATE INDEX idp_access_tokens_account ON idp_access_tokens (account_id, client_id);
CREATE INDEX idp_access_tokens_refresh ON idp_access_tokens (refresh_token_id);
CREATE INDEX idp_access_tokens_expiry ON idp_access_tokens (expires_at);

CREATE TABLE idp_throttle (
    key             TEXT      PRIMARY KEY,
    failures        INTEGER   NOT NULL,
    last_failure_at TIMESTAMP NOT NULL,
    locked_until    TIMESTAMP,
    quiet_after     TIMESTAMP NOT NULL
);
CREATE INDEX idp_throttle_quiet ON idp_throttle (quiet_after);

CREATE TABLE idp_password_links (
    hash             BLOB      PRIMARY KEY,
    account_id       TEXT      NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
    created_at       TIMESTAMP NOT NULL,
    expires_at       TIMESTAMP NOT NULL,
    used_at          TIMESTAMP,
    enrol_hash       BLOB      UNIQUE,
    enrol_secret     BLOB,
    enrol_expires_at TIMESTAMP
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
