package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The embedded provider's accounts (idp_accounts) and the organisation's
// second-factor switch (idp_settings); see server.IdPAccountStore.

const idpAccountColumns = `id, email, password_hash, totp_secret`

func scanIdPAccount(r Row) (server.IdPAccount, error) {
	var a server.IdPAccount
	err := r.Scan(&a.ID, &a.Email, OptString{S: &a.PasswordHash}, &a.TOTPSecret)
	return a, err
}

// IdPAccount returns an account.
func (s *Store) IdPAccount(ctx context.Context, id string) (_ *server.IdPAccount, err error) {
	defer wrap(&err, "IdPAccount(%s)", id)
	if !canonical(&id) {
		return nil, notFound("account", id)
	}
	a, err := one(scanIdPAccount(s.db.QueryRow(ctx, `SELECT `+idpAccountColumns+` FROM idp_accounts WHERE id = $1`, id)))
	return a, orNotFound(err, "account", id)
}

// IdPAccountByEmail returns the account of email.
func (s *Store) IdPAccountByEmail(ctx context.Context, email string) (_ *server.IdPAccount, err error) {
	defer wrap(&err, "IdPAccountByEmail")
	a, err := one(scanIdPAccount(s.db.QueryRow(ctx, `SELECT `+idpAccountColumns+` FROM idp_accounts WHERE email = $1`, email)))
	if errors.Is(err, ErrNoRows) {
		return nil, feedback.Errorf(feedback.ENotFound, "No account has this email address.")
	}
	return a, err
}

// EnsureIdPAccount returns the id of the account of email, made if needed.
func (s *Store) EnsureIdPAccount(ctx context.Context, email string, now time.Time) (id string, err error) {
	defer wrap(&err, "EnsureIdPAccount")
	err = s.db.InTx(ctx, func(tx Conn) error {
		id, err = ensureIdPAccount(ctx, tx, email, utc(now))
		return err
	})
	return id, err
}

// ensureIdPAccount inserts the account of email unless it exists, and
// returns its id.
func ensureIdPAccount(ctx context.Context, tx Conn, email string, now time.Time) (id string, err error) {
	_, err = tx.Exec(ctx, `INSERT INTO idp_accounts (id, email, totp_last_step, created_at) VALUES ($1, $2, 0, $3)
		ON CONFLICT (email) DO NOTHING`, feedback.NewIDAt(now), email, now)
	if err == nil {
		err = tx.QueryRow(ctx, `SELECT id FROM idp_accounts WHERE email = $1`, email).Scan(&id)
	}
	return id, err
}

// SetIdPPassword sets an account's password hash and revokes its tokens.
func (s *Store) SetIdPPassword(ctx context.Context, accountID, passwordHash string, now time.Time) (err error) {
	defer wrap(&err, "SetIdPPassword(%s)", accountID)
	if !canonical(&accountID) {
		return notFound("account", accountID)
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		return setIdPPassword(ctx, tx, accountID, passwordHash, utc(now))
	})
}

// setIdPPassword stores an account's password hash and deletes its tokens.
func setIdPPassword(ctx context.Context, tx Conn, accountID, hash string, now time.Time) error {
	n, err := tx.Exec(ctx, `UPDATE idp_accounts SET password_hash = $2, password_set_at = $3 WHERE id = $1`,
		accountID, hash, now)
	if err == nil && n == 0 {
		err = notFound("account", accountID)
	}
	if err != nil {
		return err
	}
	return deleteIdPTokens(ctx, tx, "account_id = $1", accountID)
}

// SetIdPTOTP gives an account a sealed TOTP secret.
func (s *Store) SetIdPTOTP(ctx context.Context, accountID string, secret []byte, step int64, now time.Time) (err error) {
	defer wrap(&err, "SetIdPTOTP(%s)", accountID)
	if !canonical(&accountID) {
		return notFound("account", accountID)
	}
	return setIdPTOTP(ctx, s.db, accountID, secret, step, utc(now))
}

func setIdPTOTP(ctx context.Context, c Conn, accountID string, secret []byte, step int64, now time.Time) error {
	n, err := c.Exec(ctx, `UPDATE idp_accounts SET totp_secret = $2, totp_last_step = $3, totp_enrolled_at = $4
		WHERE id = $1`, accountID, secret, step, now)
	if err == nil && n == 0 {
		err = notFound("account", accountID)
	}
	return err
}

// UseIdPTOTPStep spends a TOTP time step of an account, once.
func (s *Store) UseIdPTOTPStep(ctx context.Context, accountID string, step int64) (_ bool, err error) {
	defer wrap(&err, "UseIdPTOTPStep(%s)", accountID)
	if !canonical(&accountID) {
		return false, nil
	}
	n, err := s.db.Exec(ctx, `UPDATE idp_accounts SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2`,
		accountID, step)
	return n == 1, err
}

// SetIdPMFARequired sets the organisation-wide second-factor switch.
func (s *Store) SetIdPMFARequired(ctx context.Context, required bool) (err error) {
	defer wrap(&err, "SetIdPMFARequired")
	_, err = s.db.Exec(ctx, `UPDATE idp_settings SET mfa_required = $1 WHERE id = 1`, required)
	return err
}

// IdPMFARequired reads the organisation-wide second-factor switch.
func (s *Store) IdPMFARequired(ctx context.Context) (required bool, err error) {
	defer wrap(&err, "IdPMFARequired")
	err = s.db.QueryRow(ctx, `SELECT mfa_required FROM idp_settings WHERE id = 1`).Scan(&required)
	return required, err
}
