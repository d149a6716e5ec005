package sqlstore

import (
	"context"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const auditColumns = "id, workspace_id, actor_id, actor, action, target, ip, details, created_at"

// AppendAudit stores e with a new id and created_at.
func (s *Store) AppendAudit(ctx context.Context, e *feedback.AuditEntry) (err error) {
	defer wrap(&err, "AppendAudit(%s)", e.Action)
	now := s.now()
	e.ID, e.CreatedAt = feedback.NewIDAt(now), feedback.NewTime(now)
	if e.Details == nil {
		e.Details = map[string]string{}
	}
	details, err := jsonArg(e.Details)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO audit_log (`+auditColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			e.ID, ptrArg(e.WorkspaceID), ptrArg(e.ActorID), e.Actor, e.Action, e.Target, e.IP, details, now)
		return err
	})
}

// AuditLog returns a page of the audit log, newest first, and the total.
func (s *Store) AuditLog(ctx context.Context, p feedback.ListParams) (_ []feedback.AuditEntry, _ int, err error) {
	defer wrap(&err, "AuditLog")
	from, to := bounds(p)
	var total int
	err = s.db.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE created_at >= $1 AND created_at < $2`, from, to).Scan(&total)
	limit, offset := pageBounds(p)
	if err != nil || offset >= total {
		return []feedback.AuditEntry{}, total, err
	}
	rows, err := s.db.Query(ctx, `SELECT `+auditColumns+` FROM audit_log WHERE created_at >= $1 AND created_at < $2
		ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`, from, to, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	items, err := collect(rows, func(r Row) (feedback.AuditEntry, error) {
		var e feedback.AuditEntry
		err := r.Scan(&e.ID, nullString{&e.WorkspaceID}, nullString{&e.ActorID}, &e.Actor, &e.Action, &e.Target, &e.IP,
			asJSON(&e.Details), at(&e.CreatedAt))
		return e, err
	})
	return items, total, err
}

// ptrArg returns nil (SQL NULL) for a nil pointer, and *p otherwise.
func ptrArg(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// nullString scans a nullable column into *p: nil for NULL.
type nullString struct{ p **string }

// Scan implements sql.Scanner.
func (d nullString) Scan(src any) error {
	if src == nil {
		*d.p = nil
		return nil
	}
	var v string
	if err := (OptString{&v}).Scan(src); err != nil {
		return err
	}
	*d.p = &v
	return nil
}
