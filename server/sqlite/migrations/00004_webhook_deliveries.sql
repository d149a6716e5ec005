-- The durable webhook queue, with the same tables, columns and indexes
-- as PostgreSQL's (see its 00004_webhook_deliveries.sql for what each
-- holds). Writing an event inserts, in the same transaction, one pending
-- delivery per enabled subscription of the workspace that listens to the
-- event's type or to "*": one INSERT ... SELECT over webhook_events, the
-- event names of each subscription as rows. The single writer makes the
-- claim's UPDATE ... WHERE id IN (SELECT ... LIMIT n) safe without row
-- locks.
--
-- SQLite adds a NOT NULL column only with a default: updated_at gets 0
-- and is then backfilled with created_at; the store always writes it.
-- Stop older versions before migrating: the subscriptions they create
-- afterwards would have no rows in webhook_events.

-- +goose Up
ALTER TABLE webhooks ADD COLUMN updated_at TIMESTAMP NOT NULL DEFAULT 0;
UPDATE webhooks SET updated_at = created_at;
ALTER TABLE webhooks ADD COLUMN disabled_at TIMESTAMP;
ALTER TABLE webhooks ADD COLUMN disabled_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE webhooks ADD COLUMN previous_secret BLOB; -- sealed, like secret
ALTER TABLE webhooks ADD COLUMN previous_secret_until TIMESTAMP;

-- A subscription to "*" has that row alone, so that an event matches at
-- most one row of each subscription.
CREATE TABLE webhook_events (
    workspace_id TEXT NOT NULL,
    webhook_id   TEXT NOT NULL,
    event        TEXT NOT NULL,
    PRIMARY KEY (workspace_id, event, webhook_id),
    FOREIGN KEY (workspace_id, webhook_id) REFERENCES webhooks (workspace_id, id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX webhook_events_webhook ON webhook_events (workspace_id, webhook_id);

INSERT INTO webhook_events (workspace_id, webhook_id, event)
SELECT DISTINCT w.workspace_id, w.id, e.value
FROM webhooks w, json_each(w.events) AS e
WHERE e.value = '*' OR NOT EXISTS (SELECT 1 FROM json_each(w.events) AS a WHERE a.value = '*');

CREATE TABLE deliveries (
    workspace_id     TEXT      NOT NULL,
    id               TEXT      NOT NULL, -- the webhook-id header of every attempt
    webhook_id       TEXT      NOT NULL,
    event_seq        INTEGER   NOT NULL,
    event_id         TEXT      NOT NULL,
    event_type       TEXT      NOT NULL,
    status           TEXT      NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts         INTEGER   NOT NULL,
    schedule_base    INTEGER   NOT NULL, -- attempts made before the latest redelivery: the retry schedule counts from there
    next_attempt_at  TIMESTAMP,
    lease_until      TIMESTAMP,
    leased_by        TEXT,
    last_status_code INTEGER   NOT NULL,
    last_error       TEXT      NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL,
    delivered_at     TIMESTAMP,
    PRIMARY KEY (workspace_id, id),
    UNIQUE (workspace_id, webhook_id, event_seq),
    FOREIGN KEY (workspace_id, webhook_id) REFERENCES webhooks (workspace_id, id) ON DELETE CASCADE,
    FOREIGN KEY (workspace_id, event_seq) REFERENCES events (workspace_id, seq),
    CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_list ON deliveries (workspace_id, webhook_id, created_at DESC, id DESC);

CREATE TABLE delivery_attempts (
    workspace_id    TEXT      NOT NULL,
    delivery_id     TEXT      NOT NULL,
    n               INTEGER   NOT NULL, -- 1, 2, ...
    at              TIMESTAMP NOT NULL,
    status_code     INTEGER   NOT NULL, -- 0 when no answer came
    duration_ms     INTEGER   NOT NULL,
    error           TEXT      NOT NULL,
    next_attempt_at TIMESTAMP,          -- the retry this attempt scheduled
    PRIMARY KEY (workspace_id, delivery_id, n),
    FOREIGN KEY (workspace_id, delivery_id) REFERENCES deliveries (workspace_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- +goose Down
DROP TABLE delivery_attempts;
DROP TABLE deliveries;
DROP TABLE webhook_events;
ALTER TABLE webhooks DROP COLUMN previous_secret_until;
ALTER TABLE webhooks DROP COLUMN previous_secret;
ALTER TABLE webhooks DROP COLUMN disabled_reason;
ALTER TABLE webhooks DROP COLUMN disabled_at;
ALTER TABLE webhooks DROP COLUMN updated_at;
