package sqlstore

import (
	"context"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// The embedded provider's sign-ins in progress and their codes
// (idp_auth_requests); see server.IdPSignInStore.

const idpAuthRequestColumns = `id, client_id, redirect_uri, scopes, state, nonce, response_type, response_mode,
	code_challenge, code_challenge_method, account_id, password_at, auth_time, amr, mfa_requested, expires_at`

func scanIdPAuthRequest(r Row) (server.IdPAuthRequest, error) {
	var a server.IdPAuthRequest
	err := r.Scan(&a.ID, &a.ClientID, &a.RedirectURI, words(&a.Scopes), &a.State, &a.Nonce, &a.ResponseType,
		&a.ResponseMode, &a.CodeChallenge, &a.CodeChallengeMethod, OptString{S: &a.AccountID}, atOptTime(&a.PasswordAt),
		atOptTime(&a.AuthTime), words(&a.AMR), &a.MFARequested, atTime(&a.ExpiresAt))
	return a, err
}

// CreateIdPAuthRequest stores a new sign-in.
func (s *Store) CreateIdPAuthRequest(ctx context.Context, a *server.IdPAuthRequest, now time.Time) (err error) {
	defer wrap(&err, "CreateIdPAuthRequest")
	a.AccountID, a.PasswordAt, a.AuthTime, a.ExpiresAt = "", nil, nil, utc(a.ExpiresAt)
	_, err = s.db.Exec(ctx, `INSERT INTO idp_auth_requests (id, client_id, redirect_uri, scopes, state, nonce,
		response_type, response_mode, code_challenge, code_challenge_method, amr, mfa_requested, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		a.ID, a.ClientID, a.RedirectURI, wordsArg(a.Scopes), a.State, a.Nonce, a.ResponseType, a.ResponseMode,
		a.CodeChallenge, a.CodeChallengeMethod, wordsArg(a.AMR), a.MFARequested, utc(now), a.ExpiresAt)
	return createError(err, "sign-in", a.ID)
}

// IdPAuthRequest returns an unexpired sign-in.
func (s *Store) IdPAuthRequest(ctx context.Context, id string, now time.Time) (_ *server.IdPAuthRequest, err error) {
	defer wrap(&err, "IdPAuthRequest")
	a, err := one(scanIdPAuthRequest(s.db.QueryRow(ctx, `SELECT `+idpAuthRequestColumns+`
		FROM idp_auth_requests WHERE id = $1 AND expires_at > $2`, id, utc(now))))
	return a, orGone(err, "sign-in")
}

// RecordIdPPassword records the password step of a sign-in.
func (s *Store) RecordIdPPassword(ctx context.Context, id, accountID string, now time.Time) (err error) {
	defer wrap(&err, "RecordIdPPassword")
	return s.updateSignIn(ctx, `UPDATE idp_auth_requests SET account_id = $2, password_at = $3
		WHERE id = $1 AND auth_time IS NULL AND expires_at > $3`, id, accountID, now)
}

// CompleteIdPAuthRequest records that a sign-in is complete.
func (s *Store) CompleteIdPAuthRequest(ctx context.Context, id, accountID string, amr []string, afterPassword bool, now time.Time) (err error) {
	defer wrap(&err, "CompleteIdPAuthRequest")
	q := `UPDATE idp_auth_requests SET account_id = $2, auth_time = $3, amr = $4
		WHERE id = $1 AND auth_time IS NULL AND expires_at > $3`
	if afterPassword {
		q += ` AND account_id = $2 AND password_at IS NOT NULL`
	}
	return s.updateSignIn(ctx, q, id, accountID, now, wordsArg(amr))
}

// updateSignIn runs q, an update of the sign-in $1 by the account $2 at
// $3 (then more): feedback.ENotFound when it changes nothing.
func (s *Store) updateSignIn(ctx context.Context, q, id, accountID string, now time.Time, more ...any) error {
	if !canonical(&accountID) {
		return gone("sign-in")
	}
	n, err := s.db.Exec(ctx, q, append([]any{id, accountID, utc(now)}, more...)...)
	if err == nil && n == 0 {
		err = gone("sign-in")
	}
	return createError(err, "account", accountID)
}

// SaveIdPCode gives a complete sign-in its one code.
func (s *Store) SaveIdPCode(ctx context.Context, id string, hash []byte, codeExpires, expires, now time.Time) (err error) {
	defer wrap(&err, "SaveIdPCode")
	n, err := s.db.Exec(ctx, `UPDATE idp_auth_requests SET code_hash = $2, code_expires_at = $3, expires_at = $4
		WHERE id = $1 AND auth_time IS NOT NULL AND code_hash IS NULL AND expires_at > $5`,
		id, hash, utc(codeExpires), utc(expires), utc(now))
	if err == nil && n == 0 {
		err = gone("sign-in")
	}
	return err
}

// SpendIdPCode spends a code and returns its sign-in, once.
func (s *Store) SpendIdPCode(ctx context.Context, hash []byte, now time.Time) (a *server.IdPAuthRequest, err error) {
	defer wrap(&err, "SpendIdPCode")
	err = s.db.InTx(ctx, func(tx Conn) error { // UPDATE ... RETURNING runs on SQLite's writer only
		a, err = one(scanIdPAuthRequest(tx.QueryRow(ctx, `UPDATE idp_auth_requests SET code_used_at = $2
			WHERE code_hash = $1 AND code_used_at IS NULL AND code_expires_at > $2
			RETURNING `+idpAuthRequestColumns, hash, utc(now))))
		return orGone(err, "code")
	})
	return nilOnError(a, err)
}

// RevokeIdPCodeGrant revokes what a used code was exchanged for.
func (s *Store) RevokeIdPCodeGrant(ctx context.Context, hash []byte) (err error) {
	defer wrap(&err, "RevokeIdPCodeGrant")
	return s.db.InTx(ctx, func(tx Conn) error {
		var id string
		err := tx.QueryRow(ctx, `SELECT id FROM idp_auth_requests WHERE code_hash = $1 AND code_used_at IS NOT NULL`,
			hash).Scan(&id)
		if err != nil {
			return orGone(err, "code")
		}
		return deleteIdPTokens(ctx, tx, "auth_request_id = $1", id)
	})
}
