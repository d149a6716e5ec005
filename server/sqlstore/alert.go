package sqlstore

import (
	"context"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const alertColumns = "id, rule_id, rule_name, kind, location_id, kiosk_id, state, value, summary, triggered_at, " +
	"acknowledged_at, acknowledged_by, resolved_at, resolved_by, resolution_note"

// Alerts returns a page of the workspace's alerts, newest first, and the
// total; p's from and to bound triggered_at, its LocationID and f narrow
// the list.
func (s *Store) Alerts(ctx context.Context, workspaceID string, p feedback.ListParams, f feedback.AlertFilter) (_ []feedback.Alert, _ int, err error) {
	defer wrap(&err, "Alerts(%s)", workspaceID)
	q := listQuery{table: "alerts", columns: alertColumns}
	if p.LocationID != "" && !canonical(&p.LocationID) || f.RuleID != "" && !canonical(&f.RuleID) || !canonical(&workspaceID) {
		return []feedback.Alert{}, 0, nil
	}
	if p.LocationID != "" {
		q.and("location_id = %s", p.LocationID)
	}
	if f.RuleID != "" {
		q.and("rule_id = %s", f.RuleID)
	}
	switch f.State {
	case "":
	case "active":
		q.where += " AND state <> 'resolved'"
	default:
		q.and("state = %s", f.State)
	}
	return list(ctx, s, workspaceID, q, p, scanAlert)
}

// Alert returns an alert. Returns feedback.ENotFound.
func (s *Store) Alert(ctx context.Context, workspaceID, id string) (_ *feedback.Alert, err error) {
	defer wrap(&err, "Alert(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("alert", id)
	}
	return findAlert(ctx, s.db, workspaceID, id, "")
}

// AcknowledgeAlert moves an open alert to acknowledged, by by at the
// store's now, with its alert.acknowledged event, in one transaction.
// Returns feedback.ENotFound, or feedback.EInvalidTransition if the
// alert is not open.
func (s *Store) AcknowledgeAlert(ctx context.Context, workspaceID, id, by string) (a *feedback.Alert, err error) {
	defer wrap(&err, "AcknowledgeAlert(%s, %s)", workspaceID, id)
	return s.moveAlert(ctx, workspaceID, id, feedback.EventAlertAcknowledged, func(a *feedback.Alert, now feedback.Time) error {
		if a.State != feedback.AlertOpen {
			return feedback.Errorf(feedback.EInvalidTransition, "The alert is %s; only an open alert can be acknowledged.", a.State)
		}
		a.State, a.AcknowledgedAt, a.AcknowledgedBy = feedback.AlertAcknowledged, &now, &by
		return nil
	})
}

// ResolveAlert moves an open or acknowledged alert to resolved, by by at
// the store's now, with note, and writes its alert.resolved event, in one
// transaction. Returns feedback.ENotFound, or
// feedback.EInvalidTransition if the alert is resolved already.
func (s *Store) ResolveAlert(ctx context.Context, workspaceID, id, by, note string) (a *feedback.Alert, err error) {
	defer wrap(&err, "ResolveAlert(%s, %s)", workspaceID, id)
	return s.moveAlert(ctx, workspaceID, id, feedback.EventAlertResolved, func(a *feedback.Alert, now feedback.Time) error {
		if a.State == feedback.AlertResolved {
			return feedback.Errorf(feedback.EInvalidTransition, "The alert is resolved already.")
		}
		a.State, a.ResolvedAt, a.ResolvedBy, a.ResolutionNote = feedback.AlertResolved, &now, &by, note
		return nil
	})
}

// moveAlert locks an alert, lets move change its state at the store's
// now, stores it and writes event typ with it as data.
func (s *Store) moveAlert(ctx context.Context, workspaceID, id, typ string, move func(*feedback.Alert, feedback.Time) error) (a *feedback.Alert, err error) {
	if !canonical(&workspaceID, &id) {
		return nil, notFound("alert", id)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		if err := s.lockRecord(ctx, tx, id); err != nil {
			return err
		}
		a, err = findAlert(ctx, tx, workspaceID, id, s.dialect.ForUpdate)
		if err != nil {
			return err
		}
		if err := move(a, feedback.NewTime(s.now())); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE alerts SET state = $3, acknowledged_at = $4, acknowledged_by = $5,
			resolved_at = $6, resolved_by = $7, resolution_note = $8 WHERE workspace_id = $1 AND id = $2`,
			workspaceID, id, a.State, feedbackTimeArg(a.AcknowledgedAt), optArg(a.AcknowledgedBy),
			feedbackTimeArg(a.ResolvedAt), optArg(a.ResolvedBy), a.ResolutionNote)
		if err != nil {
			return err
		}
		return s.appendEvent(ctx, tx, workspaceID, typ, a)
	})
	return nilOnError(a, err)
}

// AlertStats returns, per location, the alerts triggered in [from, to):
// how many, how many are still open, and the average seconds to
// acknowledge and to resolve those that were. Locations without alerts
// are left out; kiosk alerts count at the kiosk's location.
func (s *Store) AlertStats(ctx context.Context, workspaceID string, from, to time.Time) (_ []feedback.AlertResponseTimes, err error) {
	defer wrap(&err, "AlertStats(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []feedback.AlertResponseTimes{}, nil
	}
	rows, err := s.db.Query(ctx, `SELECT location_id, triggered_at, acknowledged_at, resolved_at, state FROM alerts
		WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3 AND location_id IS NOT NULL
		ORDER BY location_id`, workspaceID, from.UTC(), to.UTC())
	if err != nil {
		return nil, err
	}
	times, err := collect(rows, scanAlertTimes)
	if err != nil {
		return nil, err
	}
	return responseTimes(times), nil
}

// alertTimes is what AlertStats reads of one alert.
type alertTimes struct {
	location       string
	triggered      time.Time
	acked, settled *time.Time
	state          string
}

func scanAlertTimes(r Row) (alertTimes, error) {
	var t alertTimes
	err := r.Scan(&t.location, atTime(&t.triggered), atOptTime(&t.acked), atOptTime(&t.settled), &t.state)
	return t, err
}

// responseTimes sums times, ordered by location, per location.
func responseTimes(times []alertTimes) []feedback.AlertResponseTimes {
	out := []feedback.AlertResponseTimes{}
	var ackSum, resSum float64
	var acks, ress int
	flush := func() {
		if len(out) == 0 {
			return
		}
		last := &out[len(out)-1]
		last.AvgAcknowledgeSecs, last.AvgResolveSecs = average(ackSum, acks), average(resSum, ress)
		ackSum, resSum, acks, ress = 0, 0, 0, 0
	}
	for _, t := range times {
		if len(out) == 0 || out[len(out)-1].LocationID != t.location {
			flush()
			out = append(out, feedback.AlertResponseTimes{LocationID: t.location})
		}
		last := &out[len(out)-1]
		last.Alerts++
		if t.state == feedback.AlertOpen {
			last.Open++
		}
		if t.acked != nil {
			ackSum, acks = ackSum+t.acked.Sub(t.triggered).Seconds(), acks+1
		}
		if t.settled != nil {
			resSum, ress = resSum+t.settled.Sub(t.triggered).Seconds(), ress+1
		}
	}
	flush()
	return out
}

// average returns sum / n, or nil when n is 0.
func average(sum float64, n int) *float64 {
	if n == 0 {
		return nil
	}
	v := sum / float64(n)
	return &v
}

// findAlert reads one alert, locked by lock (a Dialect.ForUpdate or "").
func findAlert(ctx context.Context, q Conn, workspaceID, id, lock string) (*feedback.Alert, error) {
	a, err := scanAlert(q.QueryRow(ctx, `SELECT `+alertColumns+` FROM alerts
		WHERE workspace_id = $1 AND id = $2`+lock, workspaceID, id))
	if err != nil {
		return nil, orNotFound(err, "alert", id)
	}
	return &a, nil
}

// scanAlert reads alertColumns.
func scanAlert(r Row) (feedback.Alert, error) {
	var a feedback.Alert
	var location, kiosk, ackBy, resBy string
	err := r.Scan(&a.ID, &a.RuleID, &a.RuleName, &a.Kind, OptString{&location}, OptString{&kiosk}, &a.State,
		&a.Value, &a.Summary, at(&a.TriggeredAt), atOpt(&a.AcknowledgedAt), OptString{&ackBy}, atOpt(&a.ResolvedAt),
		OptString{&resBy}, &a.ResolutionNote)
	a.LocationID, a.KioskID, a.AcknowledgedBy, a.ResolvedBy = optPtr(location), optPtr(kiosk), optPtr(ackBy), optPtr(resBy)
	return a, err
}
