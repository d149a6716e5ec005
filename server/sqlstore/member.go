package sqlstore

import (
	"context"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Members returns the workspace's members, by email.
func (s *Store) Members(ctx context.Context, workspaceID string) (_ []feedback.Member, err error) {
	defer wrap(&err, "Members(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []feedback.Member{}, nil
	}
	rows, err := s.db.Query(ctx, `SELECT u.id, u.email, u.name, m.role, m.created_at FROM members m
		JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 ORDER BY u.email, u.id`, workspaceID)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(r Row) (feedback.Member, error) {
		var m feedback.Member
		return m, r.Scan(&m.UserID, &m.Email, &m.Name, &m.Role, at(&m.CreatedAt))
	})
}

// SetMemberRole changes a member's role.
func (s *Store) SetMemberRole(ctx context.Context, workspaceID, userID, role string) (err error) {
	defer wrap(&err, "SetMemberRole(%s, %s)", workspaceID, userID)
	if !canonical(&workspaceID, &userID) {
		return notFound("member", userID)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		n, err := tx.Exec(ctx, `UPDATE members SET role = $3, updated_at = $4 WHERE workspace_id = $1 AND user_id = $2`,
			workspaceID, userID, role, s.now())
		if err == nil && n == 0 {
			return notFound("member", userID)
		}
		return err
	})
}

// RemoveMember removes a member.
func (s *Store) RemoveMember(ctx context.Context, workspaceID, userID string) (err error) {
	defer wrap(&err, "RemoveMember(%s, %s)", workspaceID, userID)
	if !canonical(&workspaceID, &userID) {
		return notFound("member", userID)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		n, err := tx.Exec(ctx, `DELETE FROM members WHERE workspace_id = $1 AND user_id = $2`, workspaceID, userID)
		if err == nil && n == 0 {
			return notFound("member", userID)
		}
		return err
	})
}

// CreateInvite stores an invitation.
func (s *Store) CreateInvite(ctx context.Context, workspaceID, role, createdBy string, hash []byte, expires time.Time) (_ *feedback.Invite, err error) {
	defer wrap(&err, "CreateInvite(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return nil, notFound("workspace", workspaceID)
	}
	now := s.now()
	inv := &feedback.Invite{ID: feedback.NewIDAt(now), Role: role, ExpiresAt: feedback.NewTime(utc(expires)), CreatedAt: feedback.NewTime(now)}
	err = s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO invites (workspace_id, id, role, hash, created_by, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, workspaceID, inv.ID, role, hash, Null(createdBy), now, inv.ExpiresAt.Time)
		return createError(err, "workspace", workspaceID)
	})
	return nilOnError(inv, err)
}

// AcceptInvite uses an invitation for userID, in one transaction.
func (s *Store) AcceptInvite(ctx context.Context, hash []byte, userID string) (m *feedback.Membership, err error) {
	defer wrap(&err, "AcceptInvite(%s)", userID)
	if !canonical(&userID) {
		return nil, notFound("user", userID)
	}
	now := s.now()
	err = s.db.InTx(ctx, func(tx Conn) error {
		var ws, id, role string
		err := tx.QueryRow(ctx, `SELECT workspace_id, id, role FROM invites
			WHERE hash = $1 AND accepted_at IS NULL AND expires_at > $2`+s.dialect.ForUpdate, hash, now).Scan(&ws, &id, &role)
		if err != nil {
			return orNotFound(err, "invitation", "")
		}
		if _, err := tx.Exec(ctx, `UPDATE invites SET accepted_at = $3, accepted_by = $4 WHERE workspace_id = $1 AND id = $2`,
			ws, id, now, userID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
			ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = CASE WHEN members.role = 'admin' THEN 'admin' ELSE excluded.role END,
			updated_at = excluded.updated_at`, ws, userID, role, now)
		if err != nil {
			return err
		}
		m = &feedback.Membership{WorkspaceID: ws}
		return tx.QueryRow(ctx, `SELECT w.slug, w.name, m.role FROM members m JOIN workspaces w ON w.id = m.workspace_id
			WHERE m.workspace_id = $1 AND m.user_id = $2`, ws, userID).Scan(&m.Slug, &m.Name, &m.Role)
	})
	return nilOnError(m, err)
}
