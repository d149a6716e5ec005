package sqlstore

import (
	"context"
	"errors"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const userColumns = "id, issuer, subject, email, name, platform_owner, created_at, last_sign_in_at"

// SignIn creates or updates the user named by u.Issuer and u.Subject,
// in one transaction; the first user ever created claims the
// installation's single owner flag and becomes platform owner.
func (s *Store) SignIn(ctx context.Context, u *server.User) (err error) {
	defer wrap(&err, "SignIn(%s)", u.Subject)
	now := s.now()
	return s.db.InTx(ctx, func(tx Conn) error {
		found, err := one(scanUser(tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users
			WHERE issuer = $1 AND subject = $2`+s.dialect.ForUpdate, u.Issuer, u.Subject)))
		switch {
		case err == nil:
			_, err = tx.Exec(ctx, `UPDATE users SET email = $2, name = $3, last_sign_in_at = $4 WHERE id = $1`,
				found.ID, u.Email, u.Name, now)
			u.ID, u.PlatformOwner, u.CreatedAt, u.LastSignInAt = found.ID, found.PlatformOwner, found.CreatedAt, now
			return err
		case !errors.Is(err, ErrNoRows):
			return err
		}
		claimed, err := tx.Exec(ctx, `UPDATE installation SET owner_claimed = $1 WHERE id = 1 AND owner_claimed = $2`, true, false)
		if err != nil {
			return err
		}
		u.ID, u.PlatformOwner, u.CreatedAt, u.LastSignInAt = feedback.NewIDAt(now), claimed == 1, now, now
		_, err = tx.Exec(ctx, `INSERT INTO users (`+userColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			u.ID, u.Issuer, u.Subject, u.Email, u.Name, u.PlatformOwner, now, now)
		return err
	})
}

// User returns a user. Returns feedback.ENotFound.
func (s *Store) User(ctx context.Context, id string) (_ *server.User, err error) {
	defer wrap(&err, "User(%s)", id)
	if !canonical(&id) {
		return nil, notFound("user", id)
	}
	u, err := one(scanUser(s.db.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id)))
	return u, orNotFound(err, "user", id)
}

// Memberships returns the workspaces the user can open, by name, in
// one query: every workspace for a platform owner, else the member rows.
func (s *Store) Memberships(ctx context.Context, userID string) (_ []feedback.Membership, err error) {
	defer wrap(&err, "Memberships(%s)", userID)
	if !canonical(&userID) {
		return []feedback.Membership{}, nil
	}
	rows, err := s.db.Query(ctx, `SELECT w.id, w.slug, w.name, CAST($2 AS text) FROM workspaces w
			JOIN users u ON u.id = $1 AND u.platform_owner
		UNION ALL
		SELECT w.id, w.slug, w.name, m.role FROM members m JOIN workspaces w ON w.id = m.workspace_id
			JOIN users u ON u.id = m.user_id AND NOT u.platform_owner
		WHERE m.user_id = $1
		ORDER BY 3, 1`, userID, feedback.RoleOwner)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(r Row) (feedback.Membership, error) {
		var m feedback.Membership
		return m, r.Scan(&m.WorkspaceID, &m.Slug, &m.Name, &m.Role)
	})
}

func scanUser(r Row) (server.User, error) {
	var u server.User
	err := r.Scan(&u.ID, &u.Issuer, &u.Subject, &u.Email, &u.Name, &u.PlatformOwner, atTime(&u.CreatedAt), atTime(&u.LastSignInAt))
	return u, err
}
