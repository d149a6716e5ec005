-- Dashboard sign-in: the users who sign in through OpenID Connect, their
-- memberships, invitations, server-side sessions and the audit log.
-- Users, sessions and the audit log belong to the installation, not to a
-- workspace. Session cookies hold random values: only their SHA-256
-- hashes are stored. A rotated-out refresh hash stays in
-- retired_refresh so that its reuse (a stolen cookie) can be told from a
-- mistake and revoke the session.

-- +goose Up
CREATE TABLE users (
    id              uuid        PRIMARY KEY,
    issuer          text        NOT NULL,
    subject         text        NOT NULL,
    email           text        NOT NULL,
    name            text        NOT NULL,
    platform_owner  boolean     NOT NULL,
    created_at      timestamptz NOT NULL,
    last_sign_in_at timestamptz NOT NULL,
    UNIQUE (issuer, subject)
);

-- One row: whether the first sign-in, which makes its user the platform
-- owner, has happened.
CREATE TABLE installation (
    id            integer PRIMARY KEY CHECK (id = 1),
    owner_claimed boolean NOT NULL
);
INSERT INTO installation (id, owner_claimed) VALUES (1, false);

CREATE TABLE members (
    workspace_id uuid        NOT NULL REFERENCES workspaces (id),
    user_id      uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         text        NOT NULL CHECK (role IN ('admin', 'viewer')),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX members_user ON members (user_id);

CREATE TABLE invites (
    workspace_id uuid        NOT NULL REFERENCES workspaces (id),
    id           uuid        NOT NULL,
    role         text        NOT NULL CHECK (role IN ('admin', 'viewer')),
    hash         bytea       NOT NULL UNIQUE,
    created_by   uuid        REFERENCES users (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    accepted_at  timestamptz,
    accepted_by  uuid        REFERENCES users (id) ON DELETE SET NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX invites_list ON invites (workspace_id, created_at DESC, id DESC);

CREATE TABLE sessions (
    id                 uuid        PRIMARY KEY,
    user_id            uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    access_hash        bytea       NOT NULL UNIQUE,
    access_expires_at  timestamptz NOT NULL,
    refresh_hash       bytea       NOT NULL UNIQUE,
    refresh_expires_at timestamptz NOT NULL,
    rotated_at         timestamptz NOT NULL,
    amr                text        NOT NULL, -- the sign-in's methods, space-separated
    ip                 text        NOT NULL,
    user_agent         text        NOT NULL,
    provider_token     bytea,                -- the provider's refresh token, sealed, for revocation at logout
    created_at         timestamptz NOT NULL,
    last_seen_at       timestamptz NOT NULL,
    revoked_at         timestamptz,
    revoked_reason     text        NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id, created_at DESC, id DESC);

CREATE TABLE retired_refresh (
    hash       bytea       PRIMARY KEY,
    session_id uuid        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    retired_at timestamptz NOT NULL
);
CREATE INDEX retired_refresh_session ON retired_refresh (session_id);

CREATE TABLE audit_log (
    id           uuid        PRIMARY KEY,
    workspace_id uuid,                   -- null for installation-wide events (sign-in, sessions)
    actor_id     uuid,                   -- the user, null for the command line
    actor        text        NOT NULL,   -- the user's email, "cli", or "token:<name>"
    action       text        NOT NULL,
    target       text        NOT NULL,
    ip           text        NOT NULL,
    details      jsonb       NOT NULL,
    created_at   timestamptz NOT NULL
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
