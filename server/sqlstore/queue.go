package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// claimable is the condition of a delivery that a worker may take at $1:
// pending, due, not leased (or its lease expired), and of an enabled
// subscription.
const claimable = `d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
	AND EXISTS (SELECT 1 FROM webhooks w WHERE w.workspace_id = d.workspace_id AND w.id = d.webhook_id AND w.disabled_at IS NULL)`

// ClaimDeliveries leases up to limit due deliveries to worker until
// now+lease, taking turns across subscriptions (see ClaimDue).
func (s *Store) ClaimDeliveries(ctx context.Context, worker string, lease time.Duration, limit int) ([]server.Delivery, error) {
	return s.ClaimDue(ctx, worker, server.Claim{Lease: lease, Limit: limit})
}

// ClaimDue leases up to c.Limit due deliveries to worker until
// now+c.Lease in one transaction: claimKeys chooses them, one UPDATE
// leases those still claimable, passing over rows that concurrent claims
// hold (dialect SkipLocked), and a join reads what sending needs.
func (s *Store) ClaimDue(ctx context.Context, worker string, c server.Claim) (_ []server.Delivery, err error) {
	defer wrap(&err, "ClaimDue(%s)", worker)
	if c.PerWebhook <= 0 {
		c.PerWebhook = math.MaxInt32 // no cap
	}
	now := s.now()
	until := now.Add(c.Lease).Truncate(time.Microsecond)
	var out []server.Delivery
	err = s.db.InTx(ctx, func(tx Conn) error {
		keys, err := claimKeys(ctx, tx, now, c)
		if err != nil || len(keys) == 0 {
			return err
		}
		match, args := keyMatch("d.", keys, 3)
		_, err = tx.Exec(ctx, `UPDATE deliveries SET lease_until = $2, leased_by = $3 WHERE (workspace_id, id) IN (
			SELECT d.workspace_id, d.id FROM deliveries d WHERE `+match+` AND `+claimable+s.dialect.SkipLocked+`)`,
			append([]any{now, until, worker}, args...)...)
		if err != nil {
			return err
		}
		match, args = keyMatch("d.", keys, 2)
		out, err = s.leased(ctx, tx, match, append([]any{until, worker}, args...))
		return err
	})
	return out, err
}

// keyMatch returns the condition "(workspace_id, id) is one of keys",
// the columns prefixed with table, with placeholders after the first
// skip ones, and their arguments. It is written as two IN lists, which
// one scan of the primary key answers: as delivery ids are unique
// UUIDs, an id matches no row of another workspace of the list. Both
// lists are padded (see padded).
func keyMatch(table string, keys [][2]string, skip int) (string, []any) {
	var workspaces, ids []any
	seen := map[string]bool{}
	for _, k := range keys {
		if !seen[k[0]] {
			seen[k[0]] = true
			workspaces = append(workspaces, k[0])
		}
		ids = append(ids, k[1])
	}
	workspaces, ids = padded(workspaces), padded(ids)
	return fmt.Sprintf("%sworkspace_id IN (%s) AND %sid IN (%s)", table, marks(skip, len(workspaces)),
		table, marks(skip+len(workspaces), len(ids))), append(workspaces, ids...)
}

// leased reads the deliveries just leased (match, with $1 the lease end
// and $2 the worker)
// with their events and subscriptions.
func (s *Store) leased(ctx context.Context, tx Conn, match string, args []any) ([]server.Delivery, error) {
	rows, err := tx.Query(ctx, `SELECT d.workspace_id, d.id, d.webhook_id, d.event_id, d.event_type, d.status, d.attempts,
			d.next_attempt_at, d.last_status_code, d.last_error, d.created_at, d.delivered_at, d.schedule_base,
			e.seq, e.occurred_at, e.data, w.url, w.secret, w.previous_secret, w.previous_secret_until
		FROM deliveries d
		JOIN events e ON e.workspace_id = d.workspace_id AND e.seq = d.event_seq
		JOIN webhooks w ON w.workspace_id = d.workspace_id AND w.id = d.webhook_id
		WHERE d.lease_until = $1 AND d.leased_by = $2 AND `+match+` ORDER BY d.next_attempt_at`, args...)
	if err != nil {
		return nil, err
	}
	now, until := s.now(), args[0].(time.Time)
	return collect(rows, func(r Row) (server.Delivery, error) {
		return scanLeased(r, now, until)
	})
}

// scanLeased reads one row of leased and builds the payload: the event
// envelope as JSON, the same bytes on every attempt.
func scanLeased(r Row, now, until time.Time) (server.Delivery, error) {
	var d server.Delivery
	var e feedback.Event
	var prevUntil *time.Time
	err := r.Scan(&d.WorkspaceID, &d.ID, &d.WebhookID, &d.EventID, &d.EventType, &d.Status, &d.Attempts,
		atOpt(&d.NextAttemptAt), &d.LastStatusCode, &d.LastError, at(&d.CreatedAt), atOpt(&d.DeliveredAt),
		&d.ScheduleBase, &e.Seq, at(&e.Timestamp), compactJSON{&e.Data}, &d.URL, &d.Secret, &d.PreviousSecret,
		atOptTime(&prevUntil))
	if err != nil {
		return d, err
	}
	if prevUntil == nil || !prevUntil.After(now) {
		d.PreviousSecret = nil
	}
	e.ID, e.Type, e.WorkspaceID = d.EventID, d.EventType, d.WorkspaceID
	d.Payload, err = json.Marshal(e)
	d.LeaseUntil, d.AttemptLog = until, []feedback.DeliveryAttempt{}
	return d, err
}

// disableWebhook disables an enabled subscription with reason and
// writes a webhook.disabled event, which goes to the workspace's other
// subscriptions (a disabled one gets no deliveries).
func (s *Store) disableWebhook(ctx context.Context, tx Conn, workspaceID, id, reason string, now time.Time) error {
	n, err := tx.Exec(ctx, `UPDATE webhooks SET disabled_at = $3, disabled_reason = $4, updated_at = $3
		WHERE workspace_id = $1 AND id = $2 AND disabled_at IS NULL`, workspaceID, id, now, reason)
	if err != nil || n == 0 {
		return err
	}
	w, err := findWebhook(ctx, tx, workspaceID, id, "")
	if err != nil {
		return err
	}
	return s.appendEvent(ctx, tx, workspaceID, feedback.EventWebhookDisabled, w.WebhookSubscription)
}

// NextDue returns the earliest next attempt later than after of a
// pending delivery: the first such entry of the partial index
// deliveries_due.
func (s *Store) NextDue(ctx context.Context, after time.Time) (_ time.Time, _ bool, err error) {
	defer wrap(&err, "NextDue")
	var due time.Time
	err = s.db.QueryRow(ctx, `SELECT next_attempt_at FROM deliveries WHERE status = 'pending' AND next_attempt_at > $1
		ORDER BY next_attempt_at LIMIT 1`, after.UTC().Truncate(time.Microsecond)).Scan(atTime(&due))
	if errors.Is(err, ErrNoRows) {
		return time.Time{}, false, nil
	}
	return due, err == nil, err
}
