-- The durable webhook queue. Writing an event inserts, in the same
-- transaction, one pending delivery per enabled subscription of the
-- workspace that listens to the event's type or to "*" (server/sqlstore,
-- insertEvent): one INSERT ... SELECT over webhook_events, the event
-- names of each subscription as rows (webhooks.events keeps the list as
-- the client gave it, for reading). Workers lease due deliveries with
-- FOR NO KEY UPDATE SKIP LOCKED and record each attempt in
-- delivery_attempts.
--
-- Subscriptions gain updated_at (backfilled with created_at), the time
-- and reason of their disabling, and the rotated-out secret with the end
-- of its overlap. The backfill of webhook_events reads webhooks.events:
-- stop older versions before migrating, as the subscriptions they create
-- afterwards would have no rows (their INSERT fails on updated_at
-- anyway).

-- +goose Up
ALTER TABLE webhooks ADD COLUMN updated_at timestamptz;
UPDATE webhooks SET updated_at = created_at;
ALTER TABLE webhooks ALTER COLUMN updated_at SET NOT NULL;
ALTER TABLE webhooks ADD COLUMN disabled_at timestamptz;
ALTER TABLE webhooks ADD COLUMN disabled_reason text NOT NULL DEFAULT '';
ALTER TABLE webhooks ADD COLUMN previous_secret bytea; -- sealed, like secret
ALTER TABLE webhooks ADD COLUMN previous_secret_until timestamptz;

-- A subscription to "*" has that row alone, so that an event matches at
-- most one row of each subscription.
CREATE TABLE webhook_events (
    workspace_id uuid NOT NULL,
    webhook_id   uuid NOT NULL,
    event        text NOT NULL,
    PRIMARY KEY (workspace_id, event, webhook_id),
    FOREIGN KEY (workspace_id, webhook_id) REFERENCES webhooks (workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_events_webhook ON webhook_events (workspace_id, webhook_id);

INSERT INTO webhook_events (workspace_id, webhook_id, event)
SELECT DISTINCT w.workspace_id, w.id, e.name
FROM webhooks w, jsonb_array_elements_text(w.events) AS e (name)
WHERE e.name = '*' OR NOT w.events @> '["*"]';

-- One delivery of one event to one subscription. event_id and event_type
-- copy the (immutable) event's, for lists that need no join.
-- next_attempt_at is set while the delivery is pending; lease_until and
-- leased_by while a worker holds it (an expired lease is free to take).
CREATE TABLE deliveries (
    workspace_id     uuid        NOT NULL,
    id               uuid        NOT NULL, -- the webhook-id header of every attempt
    webhook_id       uuid        NOT NULL,
    event_seq        bigint      NOT NULL,
    event_id         uuid        NOT NULL,
    event_type       text        NOT NULL,
    status           text        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts         integer     NOT NULL,
    schedule_base    integer     NOT NULL, -- attempts made before the latest redelivery: the retry schedule counts from there
    next_attempt_at  timestamptz,
    lease_until      timestamptz,
    leased_by        text,
    last_status_code integer     NOT NULL,
    last_error       text        NOT NULL,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    delivered_at     timestamptz,
    PRIMARY KEY (workspace_id, id),
    UNIQUE (workspace_id, webhook_id, event_seq),
    FOREIGN KEY (workspace_id, webhook_id) REFERENCES webhooks (workspace_id, id) ON DELETE CASCADE,
    FOREIGN KEY (workspace_id, event_seq) REFERENCES events (workspace_id, seq),
    CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
-- The claim and NextDue read the pending deliveries in the order they
-- fall due, across workspaces.
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_list ON deliveries (workspace_id, webhook_id, created_at DESC, id DESC);

CREATE TABLE delivery_attempts (
    workspace_id    uuid        NOT NULL,
    delivery_id     uuid        NOT NULL,
    n               integer     NOT NULL, -- 1, 2, ...
    at              timestamptz NOT NULL,
    status_code     integer     NOT NULL, -- 0 when no answer came
    duration_ms     integer     NOT NULL,
    error           text        NOT NULL,
    next_attempt_at timestamptz,          -- the retry this attempt scheduled
    PRIMARY KEY (workspace_id, delivery_id, n),
    FOREIGN KEY (workspace_id, delivery_id) REFERENCES deliveries (workspace_id, id) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE delivery_attempts;
DROP TABLE deliveries;
DROP TABLE webhook_events;
ALTER TABLE webhooks DROP COLUMN previous_secret_until;
ALTER TABLE webhooks DROP COLUMN previous_secret;
ALTER TABLE webhooks DROP COLUMN disabled_reason;
ALTER TABLE webhooks DROP COLUMN disabled_at;
ALTER TABLE webhooks DROP COLUMN updated_at;
