package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
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
// now+lease, oldest due first, in one transaction: the SELECT skips rows
// that concurrent claims hold (dialect SkipLocked), the UPDATE writes the
// lease, and a join reads what sending needs.
func (s *Store) ClaimDeliveries(ctx context.Context, worker string, lease time.Duration, limit int) (_ []server.Delivery, err error) {
	defer wrap(&err, "ClaimDeliveries(%s)", worker)
	now := s.now()
	until := now.Add(lease).Truncate(time.Microsecond)
	var out []server.Delivery
	err = s.db.InTx(ctx, func(tx Conn) error {
		rows, err := tx.Query(ctx, `SELECT d.workspace_id, d.id FROM deliveries d WHERE `+claimable+`
			ORDER BY d.next_attempt_at LIMIT $2`+s.dialect.SkipLocked, now, limit)
		if err != nil {
			return err
		}
		keys, err := collect(rows, func(r Row) ([2]string, error) {
			var k [2]string
			return k, r.Scan(&k[0], &k[1])
		})
		if err != nil || len(keys) == 0 {
			return err
		}
		match, args := keyMatch("", keys, 2)
		_, err = tx.Exec(ctx, `UPDATE deliveries SET lease_until = $1, leased_by = $2 WHERE `+match,
			append([]any{until, worker}, args...)...)
		if err != nil {
			return err
		}
		match, _ = keyMatch("d.", keys, 2)
		out, err = s.leased(ctx, tx, match, append([]any{until, worker}, args...))
		return err
	})
	return out, err
}

// keyMatch returns the condition "(workspace_id, id) is one of keys",
// the columns prefixed with table, with placeholders after the first
// skip ones, and their arguments.
func keyMatch(table string, keys [][2]string, skip int) (string, []any) {
	terms := make([]string, len(keys))
	args := make([]any, 0, 2*len(keys))
	for i, k := range keys {
		n := skip + 2*i
		terms[i] = fmt.Sprintf("(%sworkspace_id = $%d AND %sid = $%d)", table, n+1, table, n+2)
		args = append(args, k[0], k[1])
	}
	return "(" + strings.Join(terms, " OR ") + ")", args
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

// FinishAttempt records attempt a and applies o in one transaction,
// provided the delivery is still leased by worker with the lease it was
// claimed with; otherwise it returns feedback.EConflict and changes
// nothing.
func (s *Store) FinishAttempt(ctx context.Context, worker string, d *server.Delivery, a feedback.DeliveryAttempt, o server.Outcome) (err error) {
	defer wrap(&err, "FinishAttempt(%s, %s)", d.WorkspaceID, d.ID)
	now := s.now()
	var next, delivered any
	switch o.Status {
	case feedback.DeliveryPending:
		next = o.NextAttempt.UTC().Truncate(time.Microsecond)
	case feedback.DeliverySucceeded:
		delivered = now
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		var n int
		err := tx.QueryRow(ctx, `UPDATE deliveries SET status = $5, attempts = attempts + 1, next_attempt_at = $6,
				lease_until = NULL, leased_by = NULL, last_status_code = $7, last_error = $8, updated_at = $9,
				delivered_at = $10
			WHERE workspace_id = $1 AND id = $2 AND leased_by = $3 AND lease_until = $4 RETURNING attempts`,
			d.WorkspaceID, d.ID, worker, d.LeaseUntil, string(o.Status), next, a.StatusCode, a.Error, now, delivered).Scan(&n)
		if err != nil {
			if err = orNotFound(err, "delivery", d.ID); feedback.ErrorCode(err) == feedback.ENotFound {
				return feedback.Errorf(feedback.EConflict, "The lease of delivery %s ended before its attempt was recorded.", d.ID)
			}
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO delivery_attempts (workspace_id, delivery_id, n, at, status_code, duration_ms,
			error, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, d.WorkspaceID, d.ID, n,
			a.At.UTC().Truncate(time.Microsecond), a.StatusCode, a.DurationMS, a.Error, next)
		if err != nil || !o.Disable {
			return err
		}
		return s.disableWebhook(ctx, tx, d.WorkspaceID, d.WebhookID, o.Reason, now)
	})
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

// NextDue returns when the earliest claimable delivery falls due: the
// later of its next attempt and the end of its lease. Deliveries of
// disabled subscriptions are left out, as no worker takes them.
func (s *Store) NextDue(ctx context.Context) (_ time.Time, _ bool, err error) {
	defer wrap(&err, "NextDue")
	var due *time.Time
	err = s.db.QueryRow(ctx, `SELECT MIN(CASE WHEN d.lease_until > d.next_attempt_at THEN d.lease_until
			ELSE d.next_attempt_at END)
		FROM deliveries d WHERE d.status = 'pending'
		AND EXISTS (SELECT 1 FROM webhooks w WHERE w.workspace_id = d.workspace_id AND w.id = d.webhook_id AND w.disabled_at IS NULL)`).
		Scan(atOptTime(&due))
	if err != nil || due == nil {
		return time.Time{}, false, err
	}
	return *due, true, nil
}
