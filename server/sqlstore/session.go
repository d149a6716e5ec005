package sqlstore

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

const sessionColumns = "id, user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, rotated_at, " +
	"amr, ip, user_agent, provider_token, provider_id_token, renewing_at, created_at, last_seen_at, revoked_at, revoked_reason"

// CreateSession stores a new session.
func (s *Store) CreateSession(ctx context.Context, ses *server.Session) (err error) {
	defer wrap(&err, "CreateSession(%s)", ses.UserID)
	if !canonical(&ses.UserID) {
		return notFound("user", ses.UserID)
	}
	now := s.now()
	ses.ID = s.newID(ses.ID)
	ses.CreatedAt, ses.LastSeenAt, ses.RotatedAt = now, now, now
	ses.RevokedAt, ses.RevokedReason, ses.RenewingAt = nil, "", nil
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO sessions (`+sessionColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, $13, $14, NULL, '')`,
			ses.ID, ses.UserID, ses.AccessHash, utc(ses.AccessExpiresAt), ses.RefreshHash, utc(ses.RefreshExpiresAt), now,
			strings.Join(ses.AMR, " "), ses.IP, ses.UserAgent, blobArg(ses.ProviderToken), blobArg(ses.ProviderIDToken), now, now)
		return createError(err, "user", ses.UserID)
	})
}

// SessionByAccess returns the session whose access hash is hash.
func (s *Store) SessionByAccess(ctx context.Context, hash []byte) (_ *server.Session, err error) {
	defer wrap(&err, "SessionByAccess")
	ses, err := one(scanSession(s.db.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE access_hash = $1`, hash)))
	return ses, orNotFound(err, "session", "")
}

// RotateSession swaps a live session's access and refresh values, and
// its provider tokens when next has new ones, or tells a reused refresh
// value from a concurrent renewal (see server.AuthStore).
func (s *Store) RotateSession(ctx context.Context, refresh []byte, next server.Rotation, grace time.Duration) (ses *server.Session, err error) {
	defer wrap(&err, "RotateSession")
	now := s.now()
	var current, stolen bool
	err = s.db.InTx(ctx, func(tx Conn) error {
		ses, current, stolen, err = s.renewable(ctx, tx, refresh, now, grace)
		if err != nil || !current {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO retired_refresh (hash, session_id, retired_at) VALUES ($1, $2, $3)`, refresh, ses.ID, now)
		if err != nil {
			return err
		}
		rotate(ses, next, now)
		_, err = tx.Exec(ctx, `UPDATE sessions SET access_hash = $2, access_expires_at = $3, refresh_hash = $4, rotated_at = $5,
			provider_token = $6, provider_id_token = $7, renewing_at = NULL WHERE id = $1`,
			ses.ID, ses.AccessHash, ses.AccessExpiresAt, ses.RefreshHash, now, blobArg(ses.ProviderToken), blobArg(ses.ProviderIDToken))
		return err
	})
	return renewed(ses, stolen, err)
}

// rotate applies next to ses.
func rotate(ses *server.Session, next server.Rotation, now time.Time) {
	ses.AccessHash, ses.AccessExpiresAt, ses.RefreshHash, ses.RotatedAt = next.AccessHash, utc(next.AccessExpiresAt), next.RefreshHash, now
	if next.ProviderToken != nil {
		ses.ProviderToken = next.ProviderToken
	}
	if next.ProviderIDToken != nil {
		ses.ProviderIDToken = next.ProviderIDToken
	}
	ses.RenewingAt = nil
}

// ClaimRenewal claims the renewal of the live session whose current
// refresh value is refresh (see server.AuthStore).
func (s *Store) ClaimRenewal(ctx context.Context, refresh []byte, grace time.Duration) (ses *server.Session, claimed bool, err error) {
	defer wrap(&err, "ClaimRenewal")
	now := s.now()
	var current, stolen bool
	err = s.db.InTx(ctx, func(tx Conn) error {
		ses, current, stolen, err = s.renewable(ctx, tx, refresh, now, grace)
		if err != nil || !current || (ses.RenewingAt != nil && now.Sub(*ses.RenewingAt) < grace) {
			return err
		}
		claimed, ses.RenewingAt = true, &now
		_, err = tx.Exec(ctx, `UPDATE sessions SET renewing_at = $2 WHERE id = $1`, ses.ID, now)
		return err
	})
	ses, err = renewed(ses, stolen, err)
	return ses, claimed && err == nil, err
}

// renewable returns, locked in tx, the session of a refresh value:
// current when refresh is its current value and it is live; otherwise
// as retiredRefresh. An expired or revoked session is not found.
func (s *Store) renewable(ctx context.Context, tx Conn, refresh []byte, now time.Time, grace time.Duration) (ses *server.Session, current, stolen bool, err error) {
	ses, err = one(scanSession(tx.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions
		WHERE refresh_hash = $1`+s.dialect.ForUpdate, refresh)))
	if errors.Is(err, ErrNoRows) {
		ses, stolen, err = s.retiredRefresh(ctx, tx, refresh, now, grace)
		return ses, false, stolen, err
	}
	if err == nil && !live(ses, now) {
		err = notFound("session", ses.ID)
	}
	return ses, err == nil, false, err
}

// renewed is the answer of a renewal: the theft of a stolen refresh value,
// or ses unless err.
func renewed(ses *server.Session, stolen bool, err error) (*server.Session, error) {
	if err == nil && stolen {
		return nil, feedback.Errorf(feedback.ETokenRevoked,
			"This sign-in was used elsewhere after it was renewed, so it was ended; sign in again.")
	}
	return nilOnError(ses, err)
}

// live reports whether a session is neither revoked nor past its refresh
// expiry.
func live(ses *server.Session, now time.Time) bool {
	return ses.RevokedAt == nil && ses.RefreshExpiresAt.After(now)
}

// retiredRefresh handles a refresh value that is no session's current
// one. Unknown: not found. Retired less than grace ago (another request
// of the same browser renewed first): the live session, unchanged.
// Retired earlier (a stolen cookie): the session is revoked and the
// theft audited, committed, and stolen is true.
func (s *Store) retiredRefresh(ctx context.Context, tx Conn, refresh []byte, now time.Time, grace time.Duration) (*server.Session, bool, error) {
	var id string
	var retired time.Time
	err := tx.QueryRow(ctx, `SELECT session_id, retired_at FROM retired_refresh WHERE hash = $1`, refresh).Scan(&id, atTime(&retired))
	if err != nil {
		return nil, false, orNotFound(err, "session", "")
	}
	ses, err := one(scanSession(tx.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = $1`+s.dialect.ForUpdate, id)))
	if err != nil {
		return nil, false, err
	}
	if now.Sub(retired) < grace {
		if !live(ses, now) {
			return nil, false, notFound("session", id)
		}
		return ses, false, nil
	}
	if ses.RevokedAt != nil {
		return nil, true, nil
	}
	_, err = tx.Exec(ctx, `UPDATE sessions SET revoked_at = $2, revoked_reason = $3 WHERE id = $1`, id, now, "refresh token reused")
	if err != nil {
		return nil, false, err
	}
	_, err = tx.Exec(ctx, `INSERT INTO audit_log (`+auditColumns+`)
		SELECT $1, NULL, u.id, u.email, $2, $3, '', '{}', $4 FROM users u WHERE u.id = $5`,
		feedback.NewIDAt(now), feedback.AuditRefreshReused, "session:"+id, now, ses.UserID)
	return nil, true, err
}

// TouchSession sets last_seen_at and ip.
func (s *Store) TouchSession(ctx context.Context, id string, at time.Time, ip string) (err error) {
	defer wrap(&err, "TouchSession(%s)", id)
	if !canonical(&id) {
		return notFound("session", id)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		_, err := tx.Exec(ctx, `UPDATE sessions SET last_seen_at = $2, ip = $3 WHERE id = $1`, id, utc(at), ip)
		return err
	})
}

// Sessions returns the user's live sessions, newest first.
func (s *Store) Sessions(ctx context.Context, userID string) (_ []server.Session, err error) {
	defer wrap(&err, "Sessions(%s)", userID)
	if !canonical(&userID) {
		return []server.Session{}, nil
	}
	rows, err := s.db.Query(ctx, `SELECT `+sessionColumns+` FROM sessions
		WHERE user_id = $1 AND revoked_at IS NULL AND refresh_expires_at > $2
		ORDER BY created_at DESC, id DESC`, userID, s.now())
	if err != nil {
		return nil, err
	}
	return collect(rows, scanSession)
}

// RevokeSession revokes one of the user's live sessions.
func (s *Store) RevokeSession(ctx context.Context, userID, id, reason string) (err error) {
	defer wrap(&err, "RevokeSession(%s)", id)
	if !canonical(&userID, &id) {
		return notFound("session", id)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		n, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $3, revoked_reason = $4
			WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`, id, userID, s.now(), reason)
		if err == nil && n == 0 {
			return notFound("session", id)
		}
		return err
	})
}

func scanSession(r Row) (server.Session, error) {
	var ses server.Session
	var amr string
	err := r.Scan(&ses.ID, &ses.UserID, &ses.AccessHash, atTime(&ses.AccessExpiresAt), &ses.RefreshHash,
		atTime(&ses.RefreshExpiresAt), atTime(&ses.RotatedAt), &amr, &ses.IP, &ses.UserAgent, &ses.ProviderToken,
		&ses.ProviderIDToken, atOptTime(&ses.RenewingAt), atTime(&ses.CreatedAt), atTime(&ses.LastSeenAt), atOptTime(&ses.RevokedAt), &ses.RevokedReason)
	ses.AMR = strings.Fields(amr)
	return ses, err
}

// blobArg returns a nullable BLOB argument: b, or nil (SQL NULL) when
// b is nil.
func blobArg(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// utc returns t as stores keep it: UTC, microseconds.
func utc(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
