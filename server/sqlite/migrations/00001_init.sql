-- The first schema, with the same tables and columns as PostgreSQL's:
-- uuid becomes TEXT (canonical lower case); timestamptz becomes INTEGER
-- microseconds since the Unix epoch in a column declared TIMESTAMP (the
-- driver converts time.Time both ways); jsonb becomes TEXT; bytea BLOB.
-- Every workspace-owned table leads its primary key with workspace_id,
-- references are composite foreign keys that include it, and every list
-- reads an index that ends with (created_at DESC, id DESC).

-- +goose Up
CREATE TABLE workspaces (
    id         TEXT      NOT NULL PRIMARY KEY,
    name       TEXT      NOT NULL,
    slug       TEXT      NOT NULL UNIQUE,
    poster_key BLOB      NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- The per-workspace event counter: incremented in the transaction that
-- writes the event, so sequence numbers are gapless and in commit order.
CREATE TABLE event_sequences (
    workspace_id TEXT    NOT NULL PRIMARY KEY REFERENCES workspaces (id),
    seq          INTEGER NOT NULL
);

CREATE TABLE api_tokens (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id),
    id           TEXT      NOT NULL,
    name         TEXT      NOT NULL,
    prefix       TEXT      NOT NULL,
    hash         BLOB      NOT NULL UNIQUE,
    created_at   TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP,
    revoked_at   TIMESTAMP,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX api_tokens_list ON api_tokens (workspace_id, created_at DESC, id DESC);

CREATE TABLE locations (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id),
    id           TEXT      NOT NULL,
    name         TEXT      NOT NULL,
    description  TEXT      NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    deleted_at   TIMESTAMP,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX locations_list ON locations (workspace_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE reviews (
    workspace_id      TEXT      NOT NULL REFERENCES workspaces (id),
    id                TEXT      NOT NULL,
    title             TEXT      NOT NULL,
    status            TEXT      NOT NULL CHECK (status IN ('draft', 'active', 'paused', 'closed', 'archived')),
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL,
    status_changed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX reviews_list ON reviews (workspace_id, created_at DESC, id DESC);

CREATE TABLE surveys (
    workspace_id      TEXT      NOT NULL REFERENCES workspaces (id),
    id                TEXT      NOT NULL,
    title             TEXT      NOT NULL,
    status            TEXT      NOT NULL CHECK (status IN ('draft', 'active', 'paused', 'closed', 'archived')),
    questions         TEXT      NOT NULL,
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL,
    status_changed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX surveys_list ON surveys (workspace_id, created_at DESC, id DESC);

CREATE TABLE posters (
    workspace_id TEXT      NOT NULL,
    id           TEXT      NOT NULL UNIQUE, -- PosterByID: a visitor link names the poster alone
    location_id  TEXT      NOT NULL,
    form         TEXT      NOT NULL,
    review_id    TEXT,
    survey_id    TEXT,
    label        TEXT      NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    revoked_at   TIMESTAMP,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, review_id) REFERENCES reviews (workspace_id, id),
    FOREIGN KEY (workspace_id, survey_id) REFERENCES surveys (workspace_id, id),
    CHECK ((form = 'hygiene' AND review_id IS NULL AND survey_id IS NULL)
        OR (form = 'review' AND review_id IS NOT NULL AND survey_id IS NULL)
        OR (form = 'survey' AND survey_id IS NOT NULL AND review_id IS NULL))
);
CREATE INDEX posters_list ON posters (workspace_id, location_id, created_at DESC, id DESC);

CREATE TABLE hygiene_submissions (
    workspace_id TEXT      NOT NULL,
    id           TEXT      NOT NULL,
    location_id  TEXT      NOT NULL,
    poster_id    TEXT,
    rating       INTEGER   NOT NULL CHECK (rating BETWEEN 1 AND 5),
    tags         TEXT      NOT NULL,
    comment      TEXT      NOT NULL,
    language     TEXT      NOT NULL,
    source       TEXT      NOT NULL CHECK (source IN ('qr', 'kiosk')),
    device_id    TEXT      NOT NULL,
    captured_at  TIMESTAMP NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    body_hash    BLOB      NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, poster_id) REFERENCES posters (workspace_id, id)
);
CREATE INDEX hygiene_submissions_list ON hygiene_submissions (workspace_id, created_at DESC, id DESC);
CREATE INDEX hygiene_submissions_location ON hygiene_submissions (workspace_id, location_id, created_at DESC, id DESC);

CREATE TABLE review_responses (
    workspace_id    TEXT      NOT NULL,
    id              TEXT      NOT NULL,
    review_id       TEXT      NOT NULL,
    location_id     TEXT      NOT NULL,
    poster_id       TEXT,
    rating          INTEGER   NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comment         TEXT      NOT NULL,
    contact_email   TEXT      NOT NULL,
    contact_consent BOOLEAN   NOT NULL,
    language        TEXT      NOT NULL,
    source          TEXT      NOT NULL CHECK (source IN ('qr', 'kiosk')),
    device_id       TEXT      NOT NULL,
    captured_at     TIMESTAMP NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    body_hash       BLOB      NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, review_id) REFERENCES reviews (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, poster_id) REFERENCES posters (workspace_id, id)
);
CREATE INDEX review_responses_list ON review_responses (workspace_id, created_at DESC, id DESC);
CREATE INDEX review_responses_review ON review_responses (workspace_id, review_id, created_at DESC, id DESC);

CREATE TABLE survey_responses (
    workspace_id TEXT      NOT NULL,
    id           TEXT      NOT NULL,
    survey_id    TEXT      NOT NULL,
    location_id  TEXT      NOT NULL,
    poster_id    TEXT,
    answers      TEXT      NOT NULL,
    language     TEXT      NOT NULL,
    source       TEXT      NOT NULL CHECK (source IN ('qr', 'kiosk')),
    device_id    TEXT      NOT NULL,
    captured_at  TIMESTAMP NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    body_hash    BLOB      NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, survey_id) REFERENCES surveys (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, poster_id) REFERENCES posters (workspace_id, id)
);
CREATE INDEX survey_responses_list ON survey_responses (workspace_id, created_at DESC, id DESC);
CREATE INDEX survey_responses_survey ON survey_responses (workspace_id, survey_id, created_at DESC, id DESC);

CREATE TABLE webhooks (
    workspace_id  TEXT      NOT NULL REFERENCES workspaces (id),
    id            TEXT      NOT NULL,
    url           TEXT      NOT NULL,
    events        TEXT      NOT NULL,
    secret_prefix TEXT      NOT NULL,
    secret        BLOB      NOT NULL, -- sealed with the server keyring
    created_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX webhooks_list ON webhooks (workspace_id, created_at DESC, id DESC);

CREATE TABLE events (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id),
    seq          INTEGER   NOT NULL,
    id           TEXT      NOT NULL,
    type         TEXT      NOT NULL,
    occurred_at  TIMESTAMP NOT NULL, -- the envelope's timestamp
    data         TEXT      NOT NULL,
    PRIMARY KEY (workspace_id, seq)
);

CREATE TABLE kiosk_pairing_codes (
    workspace_id TEXT      NOT NULL,
    hash         BLOB      NOT NULL UNIQUE, -- PairKiosk: the code alone names it
    location_id  TEXT      NOT NULL,
    form         TEXT      NOT NULL,
    review_id    TEXT,
    survey_id    TEXT,
    name         TEXT      NOT NULL,
    expires_at   TIMESTAMP NOT NULL,
    used_at      TIMESTAMP,
    created_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, hash),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, review_id) REFERENCES reviews (workspace_id, id),
    FOREIGN KEY (workspace_id, survey_id) REFERENCES surveys (workspace_id, id),
    CHECK ((form = 'hygiene' AND review_id IS NULL AND survey_id IS NULL)
        OR (form = 'review' AND review_id IS NOT NULL AND survey_id IS NULL)
        OR (form = 'survey' AND survey_id IS NOT NULL AND review_id IS NULL))
);

CREATE TABLE kiosks (
    workspace_id    TEXT      NOT NULL,
    id              TEXT      NOT NULL,
    name            TEXT      NOT NULL,
    location_id     TEXT      NOT NULL,
    form            TEXT      NOT NULL,
    review_id       TEXT,
    survey_id       TEXT,
    credential_hash BLOB      NOT NULL UNIQUE,
    created_at      TIMESTAMP NOT NULL, -- when it was paired
    last_seen_at    TIMESTAMP,
    queue_depth     INTEGER   NOT NULL,
    app_version     TEXT      NOT NULL,
    revoked_at      TIMESTAMP,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, review_id) REFERENCES reviews (workspace_id, id),
    FOREIGN KEY (workspace_id, survey_id) REFERENCES surveys (workspace_id, id),
    CHECK ((form = 'hygiene' AND review_id IS NULL AND survey_id IS NULL)
        OR (form = 'review' AND review_id IS NOT NULL AND survey_id IS NULL)
        OR (form = 'survey' AND survey_id IS NOT NULL AND review_id IS NULL))
);
CREATE INDEX kiosks_list ON kiosks (workspace_id, created_at DESC, id DESC);
CREATE INDEX kiosks_location ON kiosks (workspace_id, location_id);

-- +goose Down
DROP TABLE kiosks;
DROP TABLE kiosk_pairing_codes;
DROP TABLE events;
DROP TABLE webhooks;
DROP TABLE survey_responses;
DROP TABLE review_responses;
DROP TABLE hygiene_submissions;
DROP TABLE posters;
DROP TABLE surveys;
DROP TABLE reviews;
DROP TABLE locations;
DROP TABLE api_tokens;
DROP TABLE event_sequences;
DROP TABLE workspaces;
