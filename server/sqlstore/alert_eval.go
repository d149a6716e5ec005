package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// errCursorMoved rolls back an evaluation whose cursor another instance
// advanced first.
var errCursorMoved = errors.New("the alert cursor moved")

// AlertWorkspaces returns the workspaces that have an enabled rule
// evaluated on submissions (every kind but kiosk_offline).
func (s *Store) AlertWorkspaces(ctx context.Context) (_ []string, err error) {
	defer wrap(&err, "AlertWorkspaces")
	rows, err := s.db.Query(ctx, `SELECT DISTINCT workspace_id FROM alert_rules WHERE enabled AND kind <> $1`,
		feedback.RuleKioskOffline)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanString)
}

// EvaluateAlerts evaluates the workspace's enabled rules on the events
// after its cursor, and returns how many alerts it raised. Each batch of
// events is one transaction that inserts the alerts with their
// alert.triggered events and advances the cursor by compare-and-set: if
// another instance advanced it first, the transaction rolls back and the
// batch is read again from the new cursor, so each event is evaluated
// once across instances.
func (s *Store) EvaluateAlerts(ctx context.Context, workspaceID string) (raised int, err error) {
	defer wrap(&err, "EvaluateAlerts(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return 0, nil
	}
	for {
		n, more, err := s.evaluateBatch(ctx, workspaceID)
		if errors.Is(err, errCursorMoved) {
			continue
		}
		raised += n
		if err != nil || !more {
			return raised, err
		}
	}
}

// evaluateBatch evaluates one batch of events after the cursor, and
// reports whether there may be more.
func (s *Store) evaluateBatch(ctx context.Context, workspaceID string) (raised int, more bool, err error) {
	var cursor int64
	err = s.db.QueryRow(ctx, `SELECT seq FROM alert_cursors WHERE workspace_id = $1`, workspaceID).Scan(&cursor)
	if errors.Is(err, ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	events, err := s.Events(ctx, workspaceID, cursor, feedback.MaxEventLimit)
	if err != nil || len(events) == 0 {
		return 0, false, err
	}
	rules, err := s.submissionRules(ctx, workspaceID)
	if err != nil {
		return 0, false, err
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		raised = 0
		for _, e := range events {
			n, err := s.evaluateEvent(ctx, tx, workspaceID, rules, e)
			if err != nil {
				return err
			}
			raised += n
		}
		moved, err := tx.Exec(ctx, `UPDATE alert_cursors SET seq = $3 WHERE workspace_id = $1 AND seq = $2`,
			workspaceID, cursor, events[len(events)-1].Seq)
		if err == nil && moved == 0 {
			err = errCursorMoved
		}
		return err
	})
	return raised, len(events) == feedback.MaxEventLimit, err
}

// submissionRules returns the workspace's enabled rules of every kind
// but kiosk_offline.
func (s *Store) submissionRules(ctx context.Context, workspaceID string) ([]feedback.AlertRule, error) {
	rows, err := s.db.Query(ctx, `SELECT `+alertRuleColumns+` FROM alert_rules
		WHERE workspace_id = $1 AND enabled AND kind <> $2`, workspaceID, feedback.RuleKioskOffline)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanAlertRule)
}

// evaluateEvent evaluates rules on e if it is a new hygiene submission,
// and returns how many alerts it raised.
func (s *Store) evaluateEvent(ctx context.Context, tx Conn, workspaceID string, rules []feedback.AlertRule, e feedback.Event) (int, error) {
	if e.Type != feedback.EventHygieneSubmissionCreated {
		return 0, nil
	}
	var h feedback.HygieneSubmission
	if err := json.Unmarshal(e.Data, &h); err != nil {
		return 0, fmt.Errorf("event %s: %w", e.ID, err)
	}
	raised := 0
	for i := range rules {
		a, err := s.evaluateRule(ctx, tx, workspaceID, &rules[i], &h)
		if err != nil {
			return raised, err
		}
		if a == nil {
			continue
		}
		ok, err := s.raiseAlert(ctx, tx, workspaceID, a, rules[i].Emails)
		if ok {
			raised++
		}
		if err != nil {
			return raised, err
		}
	}
	return raised, nil
}

// evaluateRule returns the alert that rule r raises on submission h, or
// nil. A submission captured longer than the rule's window before it
// was stored (a late kiosk sync) raises nothing: the incident is over;
// the time it arrived, not the time of the evaluation, decides, so that
// a worker catching up after an outage still evaluates it.
// The window is [captured_at − W, captured_at], cut at the resolution of
// the rule's last alert at the location, so that the ratings of a
// resolved incident do not raise it again.
func (s *Store) evaluateRule(ctx context.Context, tx Conn, workspaceID string, r *feedback.AlertRule, h *feedback.HygieneSubmission) (*feedback.Alert, error) {
	if r.LocationID != nil && *r.LocationID != h.LocationID || !s.mayFire(r, h) {
		return nil, nil
	}
	now, t := s.now(), h.CapturedAt.Time.UTC()
	window := time.Duration(r.WindowMinutes) * time.Minute
	if t.Before(h.CreatedAt.Time.Add(-window)) {
		return nil, nil
	}
	since, quiet, err := s.windowStart(ctx, tx, workspaceID, r, h.LocationID, t.Add(-window), now)
	if err != nil || quiet {
		return nil, err
	}
	count, sum, err := s.windowCount(ctx, tx, workspaceID, r, h.LocationID, since, t)
	if err != nil {
		return nil, err
	}
	value, summary, fired := fire(r, count, sum)
	if !fired {
		return nil, nil
	}
	location := h.LocationID
	return &feedback.Alert{RuleID: r.ID, RuleName: r.Name, Kind: r.Kind, LocationID: &location,
		Value: value, Summary: summary}, nil
}

// mayFire reports whether h itself is one the rule counts: a low rating
// for low_ratings, one with the tag for tag_reported; any for
// average_below.
func (s *Store) mayFire(r *feedback.AlertRule, h *feedback.HygieneSubmission) bool {
	switch r.Kind {
	case feedback.RuleLowRatings:
		return h.Rating <= r.Rating
	case feedback.RuleTagReported:
		return slices.Contains(h.Tags, r.Tag)
	}
	return true
}

// windowStart returns the start of the rule's window at subject: from,
// or the resolution of its last alert there if later. quiet reports that
// the rule may not fire there now: its last alert is unresolved, or was
// resolved less than the cool-down before now.
func (s *Store) windowStart(ctx context.Context, tx Conn, workspaceID string, r *feedback.AlertRule, subject string,
	from, now time.Time) (since time.Time, quiet bool, err error) {
	var state string
	var resolved *time.Time
	err = tx.QueryRow(ctx, `SELECT state, resolved_at FROM alerts WHERE workspace_id = $1 AND rule_id = $2 AND subject = $3
		ORDER BY created_at DESC LIMIT 1`, workspaceID, r.ID, subject).Scan(&state, atOptTime(&resolved))
	switch {
	case errors.Is(err, ErrNoRows):
		return from, false, nil
	case err != nil:
		return from, false, err
	case state != feedback.AlertResolved:
		return from, true, nil
	case resolved.After(now.Add(-time.Duration(r.CooldownMinutes) * time.Minute)):
		return from, true, nil
	case resolved.After(from):
		return *resolved, false, nil
	}
	return from, false, nil
}

// windowCount returns how many of the location's submissions captured
// from since to t (inclusive: t is read from JSON, in milliseconds, and
// the stored times have microseconds) the rule counts (low ratings, ratings with its tag, or all),
// and the sum of their ratings.
func (s *Store) windowCount(ctx context.Context, tx Conn, workspaceID string, r *feedback.AlertRule, location string,
	since, t time.Time) (count, sum int64, err error) {
	cond, args := "", []any{workspaceID, location, since, t.Add(time.Millisecond)}
	switch r.Kind {
	case feedback.RuleLowRatings:
		cond, args = " AND rating <= $5", append(args, r.Rating)
	case feedback.RuleTagReported:
		cond, args = " AND "+s.dialect.JSONHas("tags", "$5"), append(args, r.Tag)
	}
	err = tx.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(rating), 0) FROM hygiene_submissions
		WHERE workspace_id = $1 AND location_id = $2 AND created_at >= $3 AND captured_at >= $3 AND captured_at < $4`+cond,
		args...).Scan(&count, &sum)
	return count, sum, err
}

// fire reports whether a window of count submissions whose ratings sum
// to sum fires r, with the value measured and the summary.
func fire(r *feedback.AlertRule, count, sum int64) (float64, string, bool) {
	switch r.Kind {
	case feedback.RuleLowRatings:
		return float64(count), fmt.Sprintf("%d ratings of %d or less within %d minutes", count, r.Rating, r.WindowMinutes),
			count >= int64(r.Count)
	case feedback.RuleTagReported:
		return float64(count), fmt.Sprintf("%s reported %d times within %d minutes", r.Tag, count, r.WindowMinutes),
			count >= int64(r.Count)
	case feedback.RuleAverageBelow:
		if count == 0 || count < int64(r.Count) {
			return 0, "", false
		}
		avg := float64(sum) / float64(count)
		return avg, fmt.Sprintf("average rating %.2f of %d ratings within %d minutes, below %g", avg, count,
			r.WindowMinutes, r.Average), avg < r.Average
	}
	return 0, "", false
}

// raiseAlert inserts a, open and triggered at the store's now, unless
// its rule has an unresolved alert at the same subject (the location, or
// the kiosk), and then writes its alert.triggered event and, if emails
// is not empty, its mail to them (see ClaimAlertMails). Reports whether
// it inserted.
func (s *Store) raiseAlert(ctx context.Context, tx Conn, workspaceID string, a *feedback.Alert, emails []string) (bool, error) {
	now := s.now()
	a.ID, a.State, a.TriggeredAt = feedback.NewIDAt(now), feedback.AlertOpen, feedback.NewTime(now)
	subject := a.LocationID
	if a.KioskID != nil {
		subject = a.KioskID
	}
	n, err := tx.Exec(ctx, `INSERT INTO alerts (workspace_id, id, rule_id, rule_name, kind, subject, location_id, kiosk_id,
			state, value, summary, triggered_at, resolution_note, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11, '', $11)
		ON CONFLICT (workspace_id, rule_id, subject) WHERE state <> 'resolved' DO NOTHING`,
		workspaceID, a.ID, a.RuleID, a.RuleName, a.Kind, *subject, optArg(a.LocationID), optArg(a.KioskID),
		a.Value, a.Summary, now)
	if err != nil || n == 0 {
		return false, err
	}
	if err := s.insertAlertMail(ctx, tx, workspaceID, a.ID, emails); err != nil {
		return true, err
	}
	return true, s.appendEvent(ctx, tx, workspaceID, feedback.EventAlertTriggered, a)
}
