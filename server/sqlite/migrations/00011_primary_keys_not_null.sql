-- SQLite lets a PRIMARY KEY column that is not an INTEGER hold NULL
-- unless it says NOT NULL (a compatibility quirk of its own), which these
-- tables' keys did not say, while PostgreSQL's keys never do. The schema
-- comparison of the two dialects (server/internal/schemadiff) found them.
-- SQLite cannot add NOT NULL to a column, so each table is made again
-- with it and its rows copied, the documented way: with foreign keys off
-- (a PRAGMA that only works outside a transaction, hence NO TRANSACTION,
-- on the one writer connection), in one transaction, which fails if a
-- foreign key is broken afterwards. Running it again after a crash before
-- goose recorded it does the same again.

-- +goose NO TRANSACTION
-- +goose Up
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE audit_log_new (
    id           TEXT        NOT NULL PRIMARY KEY,
    workspace_id TEXT,                   -- null for installation-wide events (sign-in, sessions)
    actor_id     TEXT,                   -- the user, null for the command line
    actor        TEXT        NOT NULL,   -- the user's email, "cli", or "token:<name>"
    action       TEXT        NOT NULL,
    target       TEXT        NOT NULL,
    ip           TEXT        NOT NULL,
    details      TEXT        NOT NULL,
    created_at   TIMESTAMP   NOT NULL
);
INSERT INTO audit_log_new SELECT * FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_new RENAME TO audit_log;
CREATE INDEX audit_log_list ON audit_log (created_at DESC, id DESC);

CREATE TABLE idp_access_tokens_new (
    id               TEXT      NOT NULL PRIMARY KEY,
    client_id        TEXT      NOT NULL,
    account_id       TEXT      NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
    auth_request_id  TEXT      NOT NULL,
    refresh_token_id TEXT,
    scopes           TEXT      NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    expires_at       TIMESTAMP NOT NULL
);
INSERT INTO idp_access_tokens_new SELECT * FROM idp_access_tokens;
DROP TABLE idp_access_tokens;
ALTER TABLE idp_access_tokens_new RENAME TO idp_access_tokens;
CREATE INDEX idp_access_tokens_account ON idp_access_tokens (account_id, client_id);
CREATE INDEX idp_access_tokens_expiry ON idp_access_tokens (expires_at);
CREATE INDEX idp_access_tokens_refresh ON idp_access_tokens (refresh_token_id);

CREATE TABLE idp_accounts_new (
    id               TEXT      NOT NULL PRIMARY KEY,
    email            TEXT      NOT NULL UNIQUE,
    password_hash    TEXT,
    password_set_at  TIMESTAMP,
    totp_secret      BLOB,
    totp_last_step   INTEGER   NOT NULL,
    totp_enrolled_at TIMESTAMP,
    created_at       TIMESTAMP NOT NULL
);
INSERT INTO idp_accounts_new SELECT * FROM idp_accounts;
DROP TABLE idp_accounts;
ALTER TABLE idp_accounts_new RENAME TO idp_accounts;

CREATE TABLE idp_auth_requests_new (
    id                    TEXT      NOT NULL PRIMARY KEY,
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
, mfa_requested INTEGER NOT NULL DEFAULT 0);
INSERT INTO idp_auth_requests_new SELECT * FROM idp_auth_requests;
DROP TABLE idp_auth_requests;
ALTER TABLE idp_auth_requests_new RENAME TO idp_auth_requests;
CREATE INDEX idp_auth_requests_expiry ON idp_auth_requests (expires_at);

CREATE TABLE idp_federation_domains_new (
    domain        TEXT NOT NULL PRIMARY KEY,
    federation_id TEXT NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE
);
INSERT INTO idp_federation_domains_new SELECT * FROM idp_federation_domains;
DROP TABLE idp_federation_domains;
ALTER TABLE idp_federation_domains_new RENAME TO idp_federation_domains;
CREATE INDEX idp_federation_domains_federation ON idp_federation_domains (federation_id);

CREATE TABLE idp_federation_states_new (
    state_hash      BLOB      NOT NULL PRIMARY KEY,
    auth_request_id TEXT      NOT NULL REFERENCES idp_auth_requests (id) ON DELETE CASCADE,
    federation_id   TEXT      NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE,
    nonce           TEXT      NOT NULL,
    verifier        BLOB      NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL
);
INSERT INTO idp_federation_states_new SELECT * FROM idp_federation_states;
DROP TABLE idp_federation_states;
ALTER TABLE idp_federation_states_new RENAME TO idp_federation_states;
CREATE INDEX idp_federation_states_auth_request ON idp_federation_states (auth_request_id);
CREATE INDEX idp_federation_states_expiry ON idp_federation_states (expires_at);
CREATE INDEX idp_federation_states_federation ON idp_federation_states (federation_id);

CREATE TABLE idp_federations_new (
    id                 TEXT      NOT NULL PRIMARY KEY,
    name               TEXT      NOT NULL,
    issuer             TEXT      NOT NULL,
    client_id          TEXT      NOT NULL,
    client_secret      BLOB      NOT NULL,
    trust_upstream_mfa INTEGER   NOT NULL,
    created_at         TIMESTAMP NOT NULL
, kind TEXT NOT NULL DEFAULT 'oidc', saml_metadata TEXT NOT NULL DEFAULT '');
INSERT INTO idp_federations_new SELECT * FROM idp_federations;
DROP TABLE idp_federations;
ALTER TABLE idp_federations_new RENAME TO idp_federations;

CREATE TABLE idp_password_links_new (
    hash             BLOB      NOT NULL PRIMARY KEY,
    account_id       TEXT      NOT NULL REFERENCES idp_accounts (id) ON DELETE CASCADE,
    created_at       TIMESTAMP NOT NULL,
    expires_at       TIMESTAMP NOT NULL,
    used_at          TIMESTAMP,
    enrol_hash       BLOB      UNIQUE,
    enrol_secret     BLOB,
    enrol_expires_at TIMESTAMP
);
INSERT INTO idp_password_links_new SELECT * FROM idp_password_links;
DROP TABLE idp_password_links;
ALTER TABLE idp_password_links_new RENAME TO idp_password_links;
CREATE INDEX idp_password_links_account ON idp_password_links (account_id);

CREATE TABLE idp_refresh_tokens_new (
    id              TEXT      NOT NULL PRIMARY KEY,
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
INSERT INTO idp_refresh_tokens_new SELECT * FROM idp_refresh_tokens;
DROP TABLE idp_refresh_tokens;
ALTER TABLE idp_refresh_tokens_new RENAME TO idp_refresh_tokens;
CREATE INDEX idp_refresh_tokens_account ON idp_refresh_tokens (account_id, client_id);
CREATE INDEX idp_refresh_tokens_expiry ON idp_refresh_tokens (expires_at);

CREATE TABLE idp_saml_requests_new (
    relay_hash      BLOB      NOT NULL PRIMARY KEY,
    auth_request_id TEXT      NOT NULL REFERENCES idp_auth_requests (id) ON DELETE CASCADE,
    federation_id   TEXT      NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE,
    request_id      TEXT      NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL
);
INSERT INTO idp_saml_requests_new SELECT * FROM idp_saml_requests;
DROP TABLE idp_saml_requests;
ALTER TABLE idp_saml_requests_new RENAME TO idp_saml_requests;
CREATE INDEX idp_saml_requests_auth_request ON idp_saml_requests (auth_request_id);
CREATE INDEX idp_saml_requests_expiry ON idp_saml_requests (expires_at);
CREATE INDEX idp_saml_requests_federation ON idp_saml_requests (federation_id);

CREATE TABLE idp_throttle_new (
    key             TEXT      NOT NULL PRIMARY KEY,
    failures        INTEGER   NOT NULL,
    last_failure_at TIMESTAMP NOT NULL,
    locked_until    TIMESTAMP,
    quiet_after     TIMESTAMP NOT NULL
);
INSERT INTO idp_throttle_new SELECT * FROM idp_throttle;
DROP TABLE idp_throttle;
ALTER TABLE idp_throttle_new RENAME TO idp_throttle;
CREATE INDEX idp_throttle_quiet ON idp_throttle (quiet_after);

CREATE TABLE retired_refresh_new (
    hash       BLOB        NOT NULL PRIMARY KEY,
    session_id TEXT        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    retired_at TIMESTAMP   NOT NULL
);
INSERT INTO retired_refresh_new SELECT * FROM retired_refresh;
DROP TABLE retired_refresh;
ALTER TABLE retired_refresh_new RENAME TO retired_refresh;
CREATE INDEX retired_refresh_session ON retired_refresh (session_id);

CREATE TABLE sessions_new (
    id                 TEXT        NOT NULL PRIMARY KEY,
    user_id            TEXT        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    access_hash        BLOB        NOT NULL UNIQUE,
    access_expires_at  TIMESTAMP   NOT NULL,
    refresh_hash       BLOB        NOT NULL UNIQUE,
    refresh_expires_at TIMESTAMP   NOT NULL,
    rotated_at         TIMESTAMP   NOT NULL,
    amr                TEXT        NOT NULL, -- the sign-in's methods, space-separated
    ip                 TEXT        NOT NULL,
    user_agent         TEXT        NOT NULL,
    provider_token     BLOB ,                -- the provider's refresh token, sealed, for revocation at logout
    created_at         TIMESTAMP   NOT NULL,
    last_seen_at       TIMESTAMP   NOT NULL,
    revoked_at         TIMESTAMP  ,
    revoked_reason     TEXT        NOT NULL
, provider_id_token BLOB, renewing_at TIMESTAMP);
INSERT INTO sessions_new SELECT * FROM sessions;
DROP TABLE sessions;
ALTER TABLE sessions_new RENAME TO sessions;
CREATE INDEX sessions_user ON sessions (user_id, created_at DESC, id DESC);

CREATE TABLE users_new (
    id              TEXT        NOT NULL PRIMARY KEY,
    issuer          TEXT        NOT NULL,
    subject         TEXT        NOT NULL,
    email           TEXT        NOT NULL,
    name            TEXT        NOT NULL,
    platform_owner  INTEGER     NOT NULL,
    created_at      TIMESTAMP   NOT NULL,
    last_sign_in_at TIMESTAMP   NOT NULL,
    UNIQUE (issuer, subject)
);
INSERT INTO users_new SELECT * FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;

CREATE TEMP TABLE foreign_keys_hold (broken INTEGER CHECK (broken = 0));
INSERT INTO foreign_keys_hold SELECT count(*) FROM pragma_foreign_key_check;
DROP TABLE foreign_keys_hold;
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- NOT NULL on a key changes nothing an older version writes: nothing to undo.
SELECT 1;
