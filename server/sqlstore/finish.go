package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

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
// ids. The list of keys is padded (see padded).
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
	keys := make([]any, len(group))
	for i, g := range group {
		keys[i] = [3]any{g.Delivery.WorkspaceID, g.Delivery.ID, g.Delivery.LeaseUntil}
	}
	keys = padded(keys)
	terms := make([]string, len(keys))
	for i, k := range keys {
		n := len(args)
		terms[i] = fmt.Sprintf("(workspace_id = $%d AND id = $%d AND lease_until = $%d)", n+1, n+2, n+3)
		key := k.([3]any)
		args = append(args, key[:]...)
	}
	rows, err := tx.Query(ctx, `UPDATE deliveries SET status = $2, attempts = attempts + 1, next_attempt_at = $3,
			lease_until = NULL, leased_by = NULL, last_status_code = $4, last_error = $5, updated_at = $6, delivered_at = $7
		WHERE leased_by = $1 AND (`+strings.Join(terms, " OR ")+`) RETURNING id`, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanString)
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
