package sqlstore

import (
	"context"
	"time"
)

// The TOTP enrolments that signed-in users start themselves (the
// dashboard's Account page), and the password changes they make: see
// server.IdPAccountStore.

// ChangeIdPPassword sets an account's password hash and revokes the
// tokens of its other sign-ins.
func (s *Store) ChangeIdPPassword(ctx context.Context, accountID, passwordHash, keep string, now time.Time) (err error) {
	defer wrap(&err, "ChangeIdPPassword(%s)", accountID)
	if !canonical(&accountID) {
		return notFound("account", accountID)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		n, err := tx.Exec(ctx, `UPDATE idp_accounts SET password_hash = $2, password_set_at = $3 WHERE id = $1`,
			accountID, passwordHash, utc(now))
		if err == nil && n == 0 {
			err = notFound("account", accountID)
		}
		if err != nil {
			return err
		}
		return deleteIdPTokens(ctx, tx, "account_id = $1 AND auth_request_id <> $2", accountID, keep)
	})
}

// BeginIdPTOTP gives an account a pending TOTP enrolment.
func (s *Store) BeginIdPTOTP(ctx context.Context, accountID string, secret []byte, expires time.Time) (err error) {
	defer wrap(&err, "BeginIdPTOTP(%s)", accountID)
	if !canonical(&accountID) {
		return notFound("account", accountID)
	}
	n, err := s.db.Exec(ctx, `UPDATE idp_accounts SET totp_pending = $2, totp_pending_expires_at = $3 WHERE id = $1`,
		accountID, secret, utc(expires))
	if err == nil && n == 0 {
		err = notFound("account", accountID)
	}
	return err
}

// IdPPendingTOTP returns the sealed secret of an account's pending
// enrolment.
func (s *Store) IdPPendingTOTP(ctx context.Context, accountID string, now time.Time) (_ []byte, err error) {
	defer wrap(&err, "IdPPendingTOTP(%s)", accountID)
	if !canonical(&accountID) {
		return nil, gone("enrolment")
	}
	var secret []byte
	err = s.db.QueryRow(ctx, `SELECT totp_pending FROM idp_accounts
		WHERE id = $1 AND totp_pending IS NOT NULL AND totp_pending_expires_at > $2`, accountID, utc(now)).Scan(&secret)
	return secret, orGone(err, "enrolment")
}

// FinishIdPTOTP makes an account's pending secret its TOTP secret.
func (s *Store) FinishIdPTOTP(ctx context.Context, accountID string, secret []byte, step int64, now time.Time) (err error) {
	defer wrap(&err, "FinishIdPTOTP(%s)", accountID)
	if !canonical(&accountID) {
		return gone("enrolment")
	}
	now = utc(now)
	n, err := s.db.Exec(ctx, `UPDATE idp_accounts SET totp_secret = totp_pending, totp_last_step = $3,
		totp_enrolled_at = $4, totp_pending = NULL, totp_pending_expires_at = NULL
		WHERE id = $1 AND totp_pending = $2 AND totp_pending_expires_at > $4`, accountID, secret, step, now)
	if err == nil && n == 0 {
		err = gone("enrolment")
	}
	return err
}

// RemoveIdPTOTP takes an account's TOTP secret and pending enrolment
// away.
func (s *Store) RemoveIdPTOTP(ctx context.Context, accountID string) (err error) {
	defer wrap(&err, "RemoveIdPTOTP(%s)", accountID)
	if !canonical(&accountID) {
		return notFound("account", accountID)
	}
	n, err := s.db.Exec(ctx, `UPDATE idp_accounts SET totp_secret = NULL, totp_enrolled_at = NULL, totp_pending = NULL,
		totp_pending_expires_at = NULL WHERE id = $1`, accountID)
	if err == nil && n == 0 {
		err = notFound("account", accountID)
	}
	return err
}
