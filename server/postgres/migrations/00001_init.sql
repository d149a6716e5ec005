-- The first schema. Every workspace-owned table leads its primary key
-- with workspace_id, and every reference between them is a composite
-- foreign key that includes it, so that no row can point into another
-- workspace and the schema can later be distributed by workspace_id.
-- Every list reads an index that ends with (created_at DESC, id DESC).

-- +goose Up
CREATE TABLE workspaces (
    id         uuid        PRIMARY KEY,
    name       text        NOT NULL,
    slug       text        NOT NULL UNIQUE,
    poster_key bytea       NOT NULL,
    created_at timestamptz NOT NULL
);

-- The per-workspace event counter: incremented in the transaction that
-- writes the event, so sequence numbers are gapless and in commit order.
CREATE TABLE event_sequences (
    workspace_id uuid   PRIMARY KEY REFERENCES workspaces (id),
    seq          bigint NOT NULL
);

CREATE TABLE api_tokens (
    workspace_id uuid        NOT NULL REFERENCES workspaces (id),
    id           uuid        NOT NULL,
    name         text        NOT NULL,
    prefix       text        NOT NULL,
    hash         bytea       NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX api_tokens_list ON api_tokens (workspace_id, created_at DESC, id DESC);

CREATE TABLE locations (
    workspace_id uuid        NOT NULL REFERENCES workspaces (id),
    id           uuid        NOT NULL,
    name         text        NOT NULL,
    description  text        NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    deleted_at   timestamptz,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX locations_list ON locations (workspace_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE reviews (
    workspace_id      uuid        NOT NULL REFERENCES workspaces (id),
    id                uuid        NOT NULL,
    title             text        NOT NULL,
    status            text        NOT NULL CHECK (status IN ('draft', 'active', 'paused', 'closed', 'archived')),
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    status_changed_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX reviews_list ON reviews (workspace_id, created_at DESC, id DESC);

CREATE TABLE surveys (
    workspace_id      uuid        NOT NULL REFERENCES workspaces (id),
    id                uuid        NOT NULL,
    title             text        NOT NULL,
    status            text        NOT NULL CHECK (status IN ('draft', 'active', 'paused', 'closed', 'archived')),
    questions         jsonb       NOT NULL,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    status_changed_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX surveys_list ON surveys (workspace_id, created_at DESC, id DESC);

CREATE TABLE posters (
    workspace_id uuid        NOT NULL,
    id           uuid        NOT NULL UNIQUE, -- PosterByID: a visitor link names the poster alone
    location_id  uuid        NOT NULL,
    form         text        NOT NULL,
    review_id    uuid,
    survey_id    uuid,
    label        text        NOT NULL,
    created_at   timestamptz NOT NULL,
    revoked_at   timestamptz,
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
    workspace_id uuid        NOT NULL,
    id           uuid        NOT NULL,
    location_id  uuid        NOT NULL,
    poster_id    uuid,
    rating       smallint    NOT NULL CHECK (rating BETWEEN 1 AND 5),
    tags         jsonb       NOT NULL,
    comment      text        NOT NULL,
    language     text        NOT NULL,
    source       text        NOT NULL CHECK (source IN ('qr', 'kiosk')),
    device_id    text        NOT NULL,
    captured_at  timestamptz NOT NULL,
    created_at   timestamptz NOT NULL,
    body_hash    bytea       NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, poster_id) REFERENCES posters (workspace_id, id)
);
CREATE INDEX hygiene_submissions_list ON hygiene_submissions (workspace_id, created_at DESC, id DESC);
CREATE INDEX hygiene_submissions_location ON hygiene_submissions (workspace_id, location_id, created_at DESC, id DESC);

CREATE TABLE review_responses (
    workspace_id    uuid        NOT NULL,
    id              uuid        NOT NULL,
    review_id       uuid        NOT NULL,
    location_id     uuid        NOT NULL,
    poster_id       uuid,
    rating          smallint    NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comment         text        NOT NULL,
    contact_email   text        NOT NULL,
    contact_consent boolean     NOT NULL,
    language        text        NOT NULL,
    source          text        NOT NULL CHECK (source IN ('qr', 'kiosk')),
    device_id       text        NOT NULL,
    captured_at     timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    body_hash       bytea       NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, review_id) REFERENCES reviews (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, poster_id) REFERENCES posters (workspace_id, id)
);
CREATE INDEX review_responses_list ON review_responses (workspace_id, created_at DESC, id DESC);
CREATE INDEX review_responses_review ON review_responses (workspace_id, review_id, created_at DESC, id DESC);

CREATE TABLE survey_responses (
    workspace_id uuid        NOT NULL,
    id           uuid        NOT NULL,
    survey_id    uuid        NOT NULL,
    location_id  uuid        NOT NULL,
    poster_id    uuid,
    answers      jsonb       NOT NULL,
    language     text        NOT NULL,
    source       text        NOT NULL CHECK (source IN ('qr', 'kiosk')),
    device_id    text        NOT NULL,
    captured_at  timestamptz NOT NULL,
    created_at   timestamptz NOT NULL,
    body_hash    bytea       NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, survey_id) REFERENCES surveys (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, poster_id) REFERENCES posters (workspace_id, id)
);
CREATE INDEX survey_responses_list ON survey_responses (workspace_id, created_at DESC, id DESC);
CREATE INDEX survey_responses_survey ON survey_responses (workspace_id, survey_id, created_at DESC, id DESC);

CREATE TABLE webhooks (
    workspace_id  uuid        NOT NULL REFERENCES workspaces (id),
    id            uuid        NOT NULL,
    url           text        NOT NULL,
    events        jsonb       NOT NULL,
    secret_prefix text        NOT NULL,
    secret        bytea       NOT NULL, -- sealed with the server keyring
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE INDEX webhooks_list ON webhooks (workspace_id, created_at DESC, id DESC);

CREATE TABLE events (
    workspace_id uuid        NOT NULL REFERENCES workspaces (id),
    seq          bigint      NOT NULL,
    id           uuid        NOT NULL,
    type         text        NOT NULL,
    occurred_at  timestamptz NOT NULL, -- the envelope's timestamp
    data         jsonb       NOT NULL,
    PRIMARY KEY (workspace_id, seq)
);

CREATE TABLE kiosk_pairing_codes (
    workspace_id uuid        NOT NULL,
    hash         bytea       NOT NULL UNIQUE, -- PairKiosk: the code alone names it
    location_id  uuid        NOT NULL,
    form         text        NOT NULL,
    review_id    uuid,
    survey_id    uuid,
    name         text        NOT NULL,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, hash),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id),
    FOREIGN KEY (workspace_id, review_id) REFERENCES reviews (workspace_id, id),
    FOREIGN KEY (workspace_id, survey_id) REFERENCES surveys (workspace_id, id),
    CHECK ((form = 'hygiene' AND review_id IS NULL AND survey_id IS NULL)
        OR (form = 'review' AND review_id IS NOT NULL AND survey_id IS NULL)
        OR (form = 'survey' AND survey_id IS NOT NULL AND review_id IS NULL))
);

CREATE TABLE kiosks (
    workspace_id    uuid        NOT NULL,
    id              uuid        NOT NULL,
    name            text        NOT NULL,
    location_id     uuid        NOT NULL,
    form            text        NOT NULL,
    review_id       uuid,
    survey_id       uuid,
    credential_hash bytea       NOT NULL UNIQUE,
    created_at      timestamptz NOT NULL, -- when it was paired
    last_seen_at    timestamptz,
    queue_depth     integer     NOT NULL,
    app_version     text        NOT NULL,
    revoked_at      timestamptz,
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

-- Fixed one-minute (or other) windows of the shared rate limiter. Losing
-- them in a crash only forgives some requests, so they skip the WAL.
CREATE UNLOGGED TABLE rate_limits (
    key          text        NOT NULL,
    window_start timestamptz NOT NULL,
    window_end   timestamptz NOT NULL,
    count        integer     NOT NULL,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limits_end ON rate_limits (window_end);

-- +goose Down
DROP TABLE rate_limits;
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
