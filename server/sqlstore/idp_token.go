package sqlstore

import (
	"context"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// The access and refresh tokens of the embedded provider
// (idp_access_tokens, idp_refresh_tokens); see server.IdPTokenStore.

const (
	idpAccessColumns  = `id, client_id, account_id, auth_request_id, refresh_token_id, scopes, expires_at`
	idpRefreshColumns = `id, hash, client_id, account_id, auth_request_id, scopes, amr, auth_time, expires_at`
)

// CreateIdPAccessToken stores an access token.
func (s *Store) CreateIdPAccessToken(ctx context.Context, t *server.IdPAccessToken, now time.Time) (err error) {
	defer wrap(&err, "CreateIdPAccessToken")
	if !canonical(&t.AccountID) {
		return notFound("account", t.AccountID)
	}
	return insertIdPAccess(ctx, s.db, t, utc(now))
}

// CreateIdPTokens stores a refresh token and its access token, after
// spending the refresh token they replace, in one transaction.
func (s *Store) CreateIdPTokens(ctx context.Context, spend []byte, r *server.IdPRefreshToken, t *server.IdPAccessToken, now time.Time) (err error) {
	defer wrap(&err, "CreateIdPTokens")
	if !canonical(&r.AccountID, &t.AccountID) {
		return notFound("account", r.AccountID)
	}
	now = utc(now)
	return s.db.InTx(ctx, func(tx Conn) error {
		if spend != nil {
			if err := spendIdPRefresh(ctx, tx, spend, now); err != nil {
				return err
			}
		}
		if err := insertIdPRefresh(ctx, tx, r, now); err != nil {
			return err
		}
		return insertIdPAccess(ctx, tx, t, now)
	})
}

func insertIdPAccess(ctx context.Context, c Conn, t *server.IdPAccessToken, now time.Time) error {
	t.ExpiresAt = utc(t.ExpiresAt)
	_, err := c.Exec(ctx, `INSERT INTO idp_access_tokens (`+idpAccessColumns+`, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, t.ID, t.ClientID, t.AccountID, t.AuthRequestID,
		Null(t.RefreshTokenID), wordsArg(t.Scopes), t.ExpiresAt, now)
	return createError(err, "account", t.AccountID)
}

func insertIdPRefresh(ctx context.Context, c Conn, r *server.IdPRefreshToken, now time.Time) error {
	r.AuthTime, r.ExpiresAt = utc(r.AuthTime), utc(r.ExpiresAt)
	_, err := c.Exec(ctx, `INSERT INTO idp_refresh_tokens (`+idpRefreshColumns+`, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, r.ID, r.Hash, r.ClientID, r.AccountID, r.AuthRequestID,
		wordsArg(r.Scopes), wordsArg(r.AMR), r.AuthTime, r.ExpiresAt, now)
	return createError(err, "account", r.AccountID)
}

// spendIdPRefresh deletes a live refresh token and the access tokens
// issued with it, or returns feedback.ENotFound.
func spendIdPRefresh(ctx context.Context, tx Conn, hash []byte, now time.Time) error {
	var id string
	err := tx.QueryRow(ctx, `DELETE FROM idp_refresh_tokens WHERE hash = $1 AND expires_at > $2 RETURNING id`,
		hash, now).Scan(&id)
	if err != nil {
		return orGone(err, "refresh token")
	}
	_, err = tx.Exec(ctx, `DELETE FROM idp_access_tokens WHERE refresh_token_id = $1`, id)
	return err
}

// IdPAccessToken returns a live access token.
func (s *Store) IdPAccessToken(ctx context.Context, id string, now time.Time) (_ *server.IdPAccessToken, err error) {
	defer wrap(&err, "IdPAccessToken")
	t := &server.IdPAccessToken{}
	err = s.db.QueryRow(ctx, `SELECT `+idpAccessColumns+` FROM idp_access_tokens WHERE id = $1 AND expires_at > $2`,
		id, utc(now)).Scan(&t.ID, &t.ClientID, &t.AccountID, &t.AuthRequestID, OptString{S: &t.RefreshTokenID},
		words(&t.Scopes), atTime(&t.ExpiresAt))
	return nilOnError(t, orGone(err, "access token"))
}

// IdPRefreshToken returns a refresh token, expired or not.
func (s *Store) IdPRefreshToken(ctx context.Context, hash []byte) (_ *server.IdPRefreshToken, err error) {
	defer wrap(&err, "IdPRefreshToken")
	r := &server.IdPRefreshToken{}
	err = s.db.QueryRow(ctx, `SELECT `+idpRefreshColumns+` FROM idp_refresh_tokens WHERE hash = $1`, hash).
		Scan(&r.ID, &r.Hash, &r.ClientID, &r.AccountID, &r.AuthRequestID, words(&r.Scopes), words(&r.AMR),
			atTime(&r.AuthTime), atTime(&r.ExpiresAt))
	return nilOnError(r, orGone(err, "refresh token"))
}

// RevokeIdPToken deletes a client's access token, or its refresh token
// and the access tokens issued with it.
func (s *Store) RevokeIdPToken(ctx context.Context, id, clientID string) (err error) {
	defer wrap(&err, "RevokeIdPToken")
	return s.db.InTx(ctx, func(tx Conn) error {
		n, err := tx.Exec(ctx, `DELETE FROM idp_access_tokens WHERE id = $1 AND client_id = $2`, id, clientID)
		if err != nil || n > 0 {
			return err
		}
		n, err = tx.Exec(ctx, `DELETE FROM idp_refresh_tokens WHERE id = $1 AND client_id = $2`, id, clientID)
		if err != nil || n == 0 {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM idp_access_tokens WHERE refresh_token_id = $1`, id)
		return err
	})
}

// IdPSignIns returns the sign-ins an account's tokens at a client
// descend from.
func (s *Store) IdPSignIns(ctx context.Context, accountID, clientID string) (_ []string, err error) {
	defer wrap(&err, "IdPSignIns")
	if !canonical(&accountID) {
		return []string{}, nil
	}
	rows, err := s.db.Query(ctx, `SELECT auth_request_id FROM idp_refresh_tokens WHERE account_id = $1 AND client_id = $2
		UNION SELECT auth_request_id FROM idp_access_tokens WHERE account_id = $1 AND client_id = $2`, accountID, clientID)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanString)
}

// RevokeIdPSignIn deletes an account's tokens at a client of one sign-in.
func (s *Store) RevokeIdPSignIn(ctx context.Context, authRequestID, accountID, clientID string) (err error) {
	defer wrap(&err, "RevokeIdPSignIn")
	if !canonical(&accountID) {
		return nil
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		return deleteIdPTokens(ctx, tx, "auth_request_id = $1 AND account_id = $2 AND client_id = $3",
			authRequestID, accountID, clientID)
	})
}

// deleteIdPTokens deletes the access and refresh tokens that match where.
func deleteIdPTokens(ctx context.Context, tx Conn, where string, args ...any) error {
	if _, err := tx.Exec(ctx, `DELETE FROM idp_access_tokens WHERE `+where, args...); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM idp_refresh_tokens WHERE `+where, args...)
	return err
}
