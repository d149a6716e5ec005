package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// offlineKiosk is a kiosk that a kiosk_offline rule raises an alert for.
type offlineKiosk struct {
	id, location, name string
	lastSeen           time.Time
}

// CheckKiosksOffline raises, for each enabled kiosk_offline rule, one
// alert per unrevoked kiosk of its scope that is marked offline and was
// last seen longer than the rule's window before the store's now, unless
// the rule already alerted about this silence of the kiosk (an alert
// triggered after its last contact), has an unresolved alert about it,
// or resolved one less than the cool-down ago. Instances may run it at
// once: the unique index of unresolved alerts lets one insert, and only
// an inserted alert writes its alert.triggered event. Returns how many
// alerts it raised.
func (s *Store) CheckKiosksOffline(ctx context.Context) (raised int, err error) {
	defer wrap(&err, "CheckKiosksOffline")
	rows, err := s.db.Query(ctx, `SELECT workspace_id, `+alertRuleColumns+` FROM alert_rules WHERE enabled AND kind = $1`,
		feedback.RuleKioskOffline)
	if err != nil {
		return 0, err
	}
	type wsRule struct {
		ws string
		r  feedback.AlertRule
	}
	rules, err := collect(rows, func(row Row) (wsRule, error) {
		var w wsRule
		var location string
		err := row.Scan(&w.ws, &w.r.ID, &w.r.Name, &w.r.Kind, OptString{&location}, &w.r.Count, &w.r.Rating,
			&w.r.Average, &w.r.Tag, &w.r.WindowMinutes, &w.r.CooldownMinutes, asJSON(&w.r.Emails), &w.r.Enabled,
			at(&w.r.CreatedAt), at(&w.r.UpdatedAt))
		w.r.LocationID = optPtr(location)
		return w, err
	})
	if err != nil {
		return 0, err
	}
	for _, w := range rules {
		err := s.db.InTx(ctx, func(tx Conn) error {
			n, err := s.alertOfflineKiosks(ctx, tx, w.ws, &w.r)
			raised += n
			return err
		})
		if err != nil {
			return raised, err
		}
	}
	return raised, nil
}

// alertOfflineKiosks raises rule r's alerts in tx, as CheckKiosksOffline
// describes.
func (s *Store) alertOfflineKiosks(ctx context.Context, tx Conn, workspaceID string, r *feedback.AlertRule) (int, error) {
	now := s.now()
	before := now.Add(-time.Duration(r.WindowMinutes) * time.Minute)
	cooled := now.Add(-time.Duration(r.CooldownMinutes) * time.Minute)
	cond, args := "", []any{workspaceID, before, r.ID, cooled}
	if r.LocationID != nil {
		cond, args = " AND k.location_id = $5", append(args, *r.LocationID)
	}
	rows, err := tx.Query(ctx, `SELECT k.id, k.location_id, k.name, k.last_seen_at FROM kiosks k
		WHERE k.workspace_id = $1 AND NOT k.online AND k.revoked_at IS NULL AND k.last_seen_at <= $2`+cond+`
		AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.workspace_id = k.workspace_id AND a.rule_id = $3 AND a.subject = k.id
			AND (a.state <> 'resolved' OR a.triggered_at >= k.last_seen_at OR a.resolved_at > $4))`, args...)
	if err != nil {
		return 0, err
	}
	kiosks, err := collect(rows, func(row Row) (offlineKiosk, error) {
		var k offlineKiosk
		return k, row.Scan(&k.id, &k.location, &k.name, atTime(&k.lastSeen))
	})
	if err != nil {
		return 0, err
	}
	raised := 0
	for _, k := range kiosks {
		minutes := now.Sub(k.lastSeen).Minutes()
		a := &feedback.Alert{RuleID: r.ID, RuleName: r.Name, Kind: r.Kind, LocationID: &k.location, KioskID: &k.id,
			Value: minutes, Summary: fmt.Sprintf("kiosk %s offline for %.0f minutes", k.name, minutes)}
		ok, err := s.raiseAlert(ctx, tx, workspaceID, a, r.Emails)
		if err != nil {
			return raised, err
		}
		if ok {
			raised++
		}
	}
	return raised, nil
}
