-- Alerts (issue 13): rules per workspace or location, the alerts they
-- raise, each workspace's evaluation cursor, and the outbox of alert
-- mails, written in the alert's transaction and leased like webhook
-- deliveries (next_attempt_at is the lease's end while one is sent; NULL
-- once sent or given up).
--
-- At most one unresolved alert per rule and subject (the location, or
-- the kiosk of kiosk_offline): the partial unique index makes a second
-- one fail whatever the instances do. alert_cursors holds the seq of the
-- last event of the workspace that the rules were evaluated on; an
-- instance advances it by compare-and-set in the transaction that writes
-- the alerts, so each event is evaluated once.

-- +goose Up
CREATE TABLE alert_rules (
    workspace_id     uuid        NOT NULL REFERENCES workspaces (id),
    id               uuid        NOT NULL,
    name             text        NOT NULL,
    kind             text        NOT NULL CHECK (kind IN ('low_ratings', 'average_below', 'tag_reported', 'kiosk_offline')),
    location_id      uuid,
    count            integer     NOT NULL,
    rating           integer     NOT NULL,
    average          double precision NOT NULL,
    tag              text        NOT NULL,
    window_minutes   integer     NOT NULL,
    cooldown_minutes integer     NOT NULL,
    emails           jsonb       NOT NULL,
    enabled          boolean     NOT NULL,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id)
);
CREATE INDEX alert_rules_list ON alert_rules (workspace_id, created_at DESC, id DESC);

CREATE TABLE alerts (
    workspace_id    uuid        NOT NULL REFERENCES workspaces (id),
    id              uuid        NOT NULL,
    rule_id         uuid        NOT NULL,
    rule_name       text        NOT NULL,
    kind            text        NOT NULL,
    subject         uuid        NOT NULL,
    location_id     uuid,
    kiosk_id        uuid,
    state           text        NOT NULL CHECK (state IN ('open', 'acknowledged', 'resolved')),
    value           double precision NOT NULL,
    summary         text        NOT NULL,
    triggered_at    timestamptz NOT NULL,
    acknowledged_at timestamptz,
    acknowledged_by text,
    resolved_at     timestamptz,
    resolved_by     text,
    resolution_note text        NOT NULL,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX alerts_unresolved ON alerts (workspace_id, rule_id, subject) WHERE state <> 'resolved';
CREATE INDEX alerts_list ON alerts (workspace_id, created_at DESC, id DESC);
CREATE INDEX alerts_subject ON alerts (workspace_id, rule_id, subject, created_at DESC);

CREATE TABLE alert_cursors (
    workspace_id uuid   PRIMARY KEY REFERENCES workspaces (id),
    seq          bigint NOT NULL
);

CREATE TABLE alert_mails (
    workspace_id    uuid        NOT NULL REFERENCES workspaces (id),
    id              uuid        NOT NULL,
    alert_id        uuid        NOT NULL,
    recipients      jsonb       NOT NULL,
    attempts        integer     NOT NULL,
    next_attempt_at timestamptz,
    last_error      text        NOT NULL,
    sent_at         timestamptz,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, alert_id) REFERENCES alerts (workspace_id, id)
);
CREATE INDEX alert_mails_due ON alert_mails (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- +goose Down
DROP TABLE alert_mails;
DROP TABLE alert_cursors;
DROP TABLE alerts;
DROP TABLE alert_rules;
