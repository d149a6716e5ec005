-- Claims take turns across subscriptions under a cap per subscription
-- (server/sqlstore, ClaimDue): they count each subscription's live leases
-- through deliveries_leased, which holds only the rows being delivered,
-- and read the due deliveries a window at a time in (next_attempt_at, id)
-- order, resuming after the last one read, which deliveries_due now
-- serves without a sort.

-- +goose Up
DROP INDEX deliveries_due;
CREATE INDEX deliveries_due ON deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX deliveries_leased ON deliveries (workspace_id, webhook_id, lease_until) WHERE leased_by IS NOT NULL;

-- +goose Down
DROP INDEX deliveries_leased;
DROP INDEX deliveries_due;
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
