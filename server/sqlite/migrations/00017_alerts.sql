-- Alerts, as in PostgreSQL's 00017_alerts.sql.

-- +goose Up
CREATE TABLE alert_rules (
    workspace_id     TEXT        NOT NULL REFERENCES workspaces (id),
    id               TEXT        NOT NULL,
    name             TEXT        NOT NULL,
    kind             TEXT        NOT NULL CHECK (kind IN ('low_ratings', 'average_below', 'tag_reported', 'kiosk_offline')),
    location_id      TEXT,
    count            INTEGER     NOT NULL,
    rating           INTEGER     NOT NULL,
    average          REAL NOT NULL,
    tag              TEXT        NOT NULL,
    window_minutes   INTEGER     NOT NULL,
    cooldown_minutes INTEGER     NOT NULL,
    emails           TEXT       NOT NULL,
    enabled          BOOLEAN     NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id)
);
CREATE INDEX alert_rules_list ON alert_rules (workspace_id, created_at DESC, id DESC);

CREATE TABLE alerts (
    workspace_id    TEXT        NOT NULL REFERENCES workspaces (id),
    id              TEXT        NOT NULL,
    rule_id         TEXT        NOT NULL,
    rule_name       TEXT        NOT NULL,
    kind            TEXT        NOT NULL,
    subject         TEXT        NOT NULL,
    location_id     TEXT,
    kiosk_id        TEXT,
    state           TEXT        NOT NULL CHECK (state IN ('open', 'acknowledged', 'resolved')),
    value           REAL NOT NULL,
    summary         TEXT        NOT NULL,
    triggered_at    TIMESTAMP NOT NULL,
    acknowledged_at TIMESTAMP,
    acknowledged_by text,
    resolved_at     TIMESTAMP,
    resolved_by     text,
    resolution_note TEXT        NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX alerts_unresolved ON alerts (workspace_id, rule_id, subject) WHERE state <> 'resolved';
CREATE INDEX alerts_list ON alerts (workspace_id, created_at DESC, id DESC);
CREATE INDEX alerts_subject ON alerts (workspace_id, rule_id, subject, created_at DESC);

CREATE TABLE alert_cursors (
    workspace_id TEXT   NOT NULL PRIMARY KEY REFERENCES workspaces (id),
    seq          INTEGER NOT NULL
);

CREATE TABLE alert_mails (
    workspace_id    TEXT      NOT NULL REFERENCES workspaces (id),
    id              TEXT      NOT NULL,
    alert_id        TEXT      NOT NULL,
    recipients      TEXT      NOT NULL,
    attempts        INTEGER   NOT NULL,
    next_attempt_at TIMESTAMP,
    last_error      TEXT      NOT NULL,
    sent_at         TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, id),
    FOREIGN KEY (workspace_id, alert_id) REFERENCES alerts (workspace_id, id)
);
CREATE INDEX alert_mails_due ON alert_mails (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- +goose Down
DROP TABLE alert_mails;
DROP TABLE alert_cursors;
DROP TABLE alerts;
DROP TABLE alert_rules;
