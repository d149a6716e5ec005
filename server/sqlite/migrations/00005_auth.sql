-- Dashboard sign-in: the users who sign in through OpenID Connect, their
-- memberships, invitations, server-side sessions and the audit log.
-- Users, sessions and the audit log belong to the installation, not to a
-- workspace. Session cookies hold random values: only their SHA-256
-- hashes are stored. A rotated-out refresh hash stays in
-- retired_refresh so that its reuse (a stolen cookie) can be told from a
-- mistake and revoke the session.

-- SQLite: as PostgreSQL's, with the types of 00001 (booleans are 0/1).

-- +goose Up
CREATE TABLE users (
    id              TEXT        PRIMARY KEY,
    issuer          TEXT        NOT NULL,
    subject         TEXT        NOT NULL,
    email           TEXT        NOT NULL,
    name            TEXT        NOT NULL,
    platform_owner  INTEGER     NOT NULL,
    created_at      TIMESTAMP   NOT NULL,
    last_sign_in_at TIMESTAMP   NOT NULL,
    UNIQUE (issuer, subject)
);

-- One row: whether the first sign-in, which makes its user the platform
-- owner, has happened.
CREATE TABLE installation (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    owner_claimed INTEGER NOT NULL
);
INSERT INTO installation (id, owner_claimed) VALUES (1, 0);

CREATE TABLE members (
    workspace_id TEXT        NOT NULL REFERENCES workspaces (id),
    user_id      TEXT        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT        NOT NULL CHECK (role IN ('admin', 'viewer')),
    created_at   TIMESTAMP   NOT NULL,
    updated_at   TIMESTAMP   NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX members_user ON members (user_id);

CREATE TABLE invites (
    workspace_id TEXT        NOT NULL REFERENCES workspaces (id),
    id           TEXT        NOT NULL,
    role         TEXT        NOT NULL CHECK (role IN ('admin', 'viewer')),
    hash         BLOB        NOT NULL UNIQUE,
    created_by   TEXT        REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMP   NOT NULL,
    expires_at   TIMESTAMP   NOT NULL,
    accepted_at  TIMESTAMP  ,
    accepted_by  TEXT        REFERENCES users (id) ON DELETE SET NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX invites_list ON invites (workspace_id, created_at DESC, id DESC);

CREATE TABLE sessions (
    id                 TEXT        PRIMARY KEY,
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
);
CREATE INDEX sessions_user ON sessions (user_id, created_at DESC, id DESC);

CREATE TABLE retired_refresh (
    hash       BLOB        PRIMARY KEY,
    session_id TEXT        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    retired_at TIMESTAMP   NOT NULL
);
CREATE INDEX retired_refresh_session ON retired_refresh (session_id);

CREATE TABLE audit_log (
    id           TEXT        PRIMARY KEY,
    workspace_id TEXT,                   -- null for installation-wide events (sign-in, sessions)
    actor_id     TEXT,                   -- the user, null for the command line
    actor        TEXT        NOT NULL,   -- the user's email, "cli", or "token:<name>"
    action       TEXT        NOT NULL,
    target       TEXT        NOT NULL,
    ip           TEXT        NOT NULL,
    details      TEXT        NOT NULL,
    created_at   TIMESTAMP   NOT NULL
);
CREATE INDEX audit_log_list ON audit_log (created_at DESC, id DESC);

-- +goose Down
DROP TABLE audit_log;
DROP TABLE retired_refresh;
DROP TABLE sessions;
DROP TABLE invites;
DROP TABLE members;
DROP TABLE installation;
DROP TABLE users;
