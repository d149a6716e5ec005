package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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
// UUIDs, an id matches no row of another workspace of the list.
func keyMatch(table string, keys [][2]string, skip int) (string, []any) {
	var workspaces []string
	seen := map[string]bool{}
	for _, k := range keys {
		if !seen[k[0]] {
			seen[k[0]] = true
			workspaces = append(workspaces, k[0])
		}
	}
	args := make([]any, 0, len(workspaces)+len(keys))
	for _, w := range workspaces {
		args = append(args, w)
	}
	for _, k := range keys {
		args = append(args, k[1])
	}
	return fmt.Sprintf("%sworkspace_id IN (%s) AND %sid IN (%s)", table, marks(skip, len(workspaces)),
		table, marks(skip+len(workspaces), len(keys))), args
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
func (s *Store) FinishAttempt(ctx context.Context, worker string, d *server.Delivery, a feedback.DeliveryAttempt, o server.Outcome) error {
	lost, err := s.FinishAttempts(ctx, worker, []server.Finished{{Delivery: d, Attempt: a, Outcome: o}}, nil)
	if err == nil && len(lost) > 0 {
		err = feedback.Errorf(feedback.EConflict, "The lease of delivery %s ended before its attempt was recorded.", d.ID)
	}
	return err
}

// FinishAttempts records the attempts of done, each only while worker
// still holds the delivery's lease, with one UPDATE per distinct outcome
// (all the successes of a batch share one) and one INSERT of all the log
// rows, and releases the leases of release, in one transaction. It
// returns the ids whose lease was lost.
func (s *Store) FinishAttempts(ctx context.Context, worker string, done []server.Finished, release []*server.Delivery) (lost []string, err error) {
	defer wrap(&err, "FinishAttempts(%s, %d, %d)", worker, len(done), len(release))
	now := s.now()
	err = s.db.InTx(ctx, func(tx Conn) error {
		recorded := map[string]bool{}
		for _, group := range byOutcome(done) {
			ids, err := finishGroup(ctx, tx, worker, group, now)
			if err != nil {
				return err
			}
			for _, id := range ids {
				recorded[id] = true
			}
		}
		if err := logAttempts(ctx, tx, done, recorded); err != nil {
			return err
		}
		lost = nil
		for _, f := range done {
			if !recorded[f.Delivery.ID] {
				lost = append(lost, f.Delivery.ID)
			} else if f.Outcome.Disable {
				if err := s.disableWebhook(ctx, tx, f.Delivery.WorkspaceID, f.Delivery.WebhookID, f.Outcome.Reason, now); err != nil {
					return err
				}
			}
		}
		gone, err := releaseLeases(ctx, tx, worker, release)
		lost = append(lost, gone...)
		return err
	})
	return lost, err
}

// byOutcome groups attempts that leave their deliveries alike: the same
// status, next attempt, status code and error.
func byOutcome(done []server.Finished) [][]server.Finished {
	type outcome struct {
		status feedback.DeliveryStatus
		next   time.Time
		code   int
		err    string
	}
	var groups [][]server.Finished
	index := map[outcome]int{}
	for _, f := range done {
		k := outcome{f.Outcome.Status, f.Outcome.NextAttempt, f.Attempt.StatusCode, f.Attempt.Error}
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	return groups
}

// finishGroup applies the outcome the attempts of group share to those
// of their deliveries whose lease worker still holds, and returns their
// ids.
func finishGroup(ctx context.Context, tx Conn, worker string, group []server.Finished, now time.Time) ([]string, error) {
	f := group[0]
	var next, delivered any
	switch f.Outcome.Status {
	case feedback.DeliveryPending:
		next = f.Outcome.NextAttempt.UTC().Truncate(time.Microsecond)
	case feedback.DeliverySucceeded:
		delivered = now
	}
	args := []any{worker, string(f.Outcome.Status), next, f.Attempt.StatusCode, f.Attempt.Error, now, delivered}
	terms := make([]string, len(group))
	for i, g := range group {
		n := len(args)
		terms[i] = fmt.Sprintf("(workspace_id = $%d AND id = $%d AND lease_until = $%d)", n+1, n+2, n+3)
		args = append(args, g.Delivery.WorkspaceID, g.Delivery.ID, g.Delivery.LeaseUntil)
	}
	rows, err := tx.Query(ctx, `UPDATE deliveries SET status = $2, attempts = attempts + 1, next_attempt_at = $3,
			lease_until = NULL, leased_by = NULL, last_status_code = $4, last_error = $5, updated_at = $6, delivered_at = $7
		WHERE leased_by = $1 AND (`+strings.Join(terms, " OR ")+`) RETURNING id`, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(r Row) (string, error) {
		var id string
		return id, r.Scan(&id)
	})
}

// logAttempts inserts the log rows of the recorded attempts of done in
// one statement. An attempt's number follows the attempts the delivery
// had when it was claimed: no one else changes them under the lease.
func logAttempts(ctx context.Context, tx Conn, done []server.Finished, recorded map[string]bool) error {
	var values []string
	var args []any
	for _, f := range done {
		if !recorded[f.Delivery.ID] {
			continue
		}
		var next any
		if f.Outcome.Status == feedback.DeliveryPending {
			next = f.Outcome.NextAttempt.UTC().Truncate(time.Microsecond)
		}
		k := len(args)
		values = append(values, fmt.Sprintf("($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)", k+1, k+2, k+3, k+4, k+5, k+6, k+7, k+8))
		args = append(args, f.Delivery.WorkspaceID, f.Delivery.ID, f.Delivery.Attempts+1, f.Attempt.At.UTC().Truncate(time.Microsecond),
			f.Attempt.StatusCode, f.Attempt.DurationMS, f.Attempt.Error, next)
	}
	if len(values) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO delivery_attempts (workspace_id, delivery_id, n, at, status_code, duration_ms,
		error, next_attempt_at) VALUES `+strings.Join(values, ", "), args...)
	return err
}

// releaseLeases ends worker's leases of deliveries without an attempt, so
// that they are due again at once, and returns the ids whose lease was
// no longer worker's.
func releaseLeases(ctx context.Context, tx Conn, worker string, deliveries []*server.Delivery) ([]string, error) {
	var lost []string
	for _, d := range deliveries {
		n, err := tx.Exec(ctx, `UPDATE deliveries SET lease_until = NULL, leased_by = NULL
			WHERE workspace_id = $1 AND id = $2 AND leased_by = $3 AND lease_until = $4`,
			d.WorkspaceID, d.ID, worker, d.LeaseUntil)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			lost = append(lost, d.ID)
		}
	}
	if len(lost) < len(deliveries) {
		markDue(tx)
	}
	return lost, nil
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
