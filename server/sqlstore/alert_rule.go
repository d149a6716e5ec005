package sqlstore

import (
	"context"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const alertRuleColumns = "id, name, kind, location_id, count, rating, average, tag, window_minutes, " +
	"cooldown_minutes, emails, enabled, created_at, updated_at"

// CreateAlertRule stores r, already validated, with a new id (unless
// set), created_at and updated_at. The workspace's first rule starts its
// evaluation cursor at EventPosition: events committed before it are not
// evaluated. Returns feedback.ENotFound if the workspace or the rule's
// location does not exist.
func (s *Store) CreateAlertRule(ctx context.Context, workspaceID string, r *feedback.AlertRule) (err error) {
	defer wrap(&err, "CreateAlertRule(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return notFound("workspace", workspaceID)
	}
	if err := canonicalNew(&r.ID); err != nil {
		return err
	}
	position, err := s.EventPosition(ctx, workspaceID)
	if err != nil {
		return err
	}
	r.ID = s.newID(r.ID)
	r.CreatedAt = feedback.NewTime(s.now())
	r.UpdatedAt = r.CreatedAt
	return s.db.InTx(ctx, func(tx Conn) error {
		if err := checkRuleLocation(ctx, tx, workspaceID, r.LocationID); err != nil {
			return err
		}
		if err := writeAlertRule(ctx, tx, workspaceID, r, true); err != nil {
			return createError(err, "workspace", workspaceID)
		}
		_, err := tx.Exec(ctx, `INSERT INTO alert_cursors (workspace_id, seq) VALUES ($1, $2)
			ON CONFLICT (workspace_id) DO NOTHING`, workspaceID, position)
		return err
	})
}

// AlertRule returns a rule. Returns feedback.ENotFound.
func (s *Store) AlertRule(ctx context.Context, workspaceID, id string) (_ *feedback.AlertRule, err error) {
	defer wrap(&err, "AlertRule(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("alert rule", id)
	}
	return findAlertRule(ctx, s.db, workspaceID, id, "")
}

// AlertRules returns a page of the workspace's rules, newest first, and
// the total.
func (s *Store) AlertRules(ctx context.Context, workspaceID string, p feedback.ListParams) (_ []feedback.AlertRule, _ int, err error) {
	defer wrap(&err, "AlertRules(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []feedback.AlertRule{}, 0, nil
	}
	return list(ctx, s, workspaceID, listQuery{table: "alert_rules", columns: alertRuleColumns}, p, scanAlertRule)
}

// UpdateAlertRule calls change on the stored rule, in the transaction
// that stores the result with a new updated_at; an error of change
// leaves the rule as it was. Returns feedback.ENotFound.
func (s *Store) UpdateAlertRule(ctx context.Context, workspaceID, id string,
	change func(*feedback.AlertRule) error) (r *feedback.AlertRule, err error) {
	defer wrap(&err, "UpdateAlertRule(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return nil, notFound("alert rule", id)
	}
	err = s.db.InTx(ctx, func(tx Conn) error {
		r, err = findAlertRule(ctx, tx, workspaceID, id, s.dialect.ForUpdate)
		if err != nil {
			return err
		}
		if err := change(r); err != nil {
			return err
		}
		if err := checkRuleLocation(ctx, tx, workspaceID, r.LocationID); err != nil {
			return err
		}
		r.UpdatedAt = feedback.NewTime(s.now())
		return writeAlertRule(ctx, tx, workspaceID, r, false)
	})
	return nilOnError(r, err)
}

// DeleteAlertRule removes a rule; its alerts stay. Returns
// feedback.ENotFound.
func (s *Store) DeleteAlertRule(ctx context.Context, workspaceID, id string) (err error) {
	defer wrap(&err, "DeleteAlertRule(%s, %s)", workspaceID, id)
	if !canonical(&workspaceID, &id) {
		return notFound("alert rule", id)
	}
	n, err := s.db.Exec(ctx, `DELETE FROM alert_rules WHERE workspace_id = $1 AND id = $2`, workspaceID, id)
	if err == nil && n == 0 {
		err = notFound("alert rule", id)
	}
	return err
}

// checkRuleLocation returns feedback.ENotFound unless locationID is nil
// or names a location of the workspace that is not deleted.
func checkRuleLocation(ctx context.Context, tx Conn, workspaceID string, locationID *string) error {
	if locationID == nil {
		return nil
	}
	id := *locationID
	if !canonical(&id) {
		return notFound("location", id)
	}
	*locationID = id
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM locations WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`,
		workspaceID, id).Scan(&one)
	return orNotFound(err, "location", id)
}

// writeAlertRule inserts r, or updates the rule of r.ID.
func writeAlertRule(ctx context.Context, tx Conn, workspaceID string, r *feedback.AlertRule, insert bool) error {
	emails, err := jsonArg(r.Emails)
	if err != nil {
		return err
	}
	args := []any{workspaceID, r.ID, r.Name, r.Kind, optArg(r.LocationID), r.Count, r.Rating, r.Average, r.Tag,
		r.WindowMinutes, r.CooldownMinutes, emails, r.Enabled, r.CreatedAt.Time, r.UpdatedAt.Time}
	q := `INSERT INTO alert_rules (workspace_id, ` + alertRuleColumns + `)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`
	if !insert {
		q = `UPDATE alert_rules SET name = $3, kind = $4, location_id = $5, count = $6, rating = $7, average = $8,
			tag = $9, window_minutes = $10, cooldown_minutes = $11, emails = $12, enabled = $13, created_at = $14,
			updated_at = $15 WHERE workspace_id = $1 AND id = $2`
	}
	_, err = tx.Exec(ctx, q, args...)
	return err
}

// findAlertRule reads one rule, locked by lock (a Dialect.ForUpdate or "").
func findAlertRule(ctx context.Context, q Conn, workspaceID, id, lock string) (*feedback.AlertRule, error) {
	r, err := scanAlertRule(q.QueryRow(ctx, `SELECT `+alertRuleColumns+` FROM alert_rules
		WHERE workspace_id = $1 AND id = $2`+lock, workspaceID, id))
	if err != nil {
		return nil, orNotFound(err, "alert rule", id)
	}
	return &r, nil
}

// scanAlertRule reads alertRuleColumns.
func scanAlertRule(row Row) (feedback.AlertRule, error) {
	var r feedback.AlertRule
	var location string
	err := row.Scan(&r.ID, &r.Name, &r.Kind, OptString{&location}, &r.Count, &r.Rating, &r.Average, &r.Tag,
		&r.WindowMinutes, &r.CooldownMinutes, asJSON(&r.Emails), &r.Enabled, at(&r.CreatedAt), at(&r.UpdatedAt))
	r.LocationID = optPtr(location)
	return r, err
}

// optArg is Null for an optional string.
func optArg(s *string) any {
	if s == nil {
		return nil
	}
	return Null(*s)
}

// optPtr returns nil for "", and &s otherwise.
func optPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
