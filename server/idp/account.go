package idp

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// account is a row of idp_accounts.
type account struct {
	id, email    string
	passwordHash string // "" until set
	totpSecret   []byte // sealed; nil without TOTP
}

const accountColumns = `id, email, password_hash, totp_secret`

func scanAccount(row sqlstore.Row) (*account, error) {
	a := &account{}
	if err := row.Scan(&a.id, &a.email, sqlstore.OptString{S: &a.passwordHash}, &a.totpSecret); err != nil {
		return nil, orNotFound(err)
	}
	return a, nil
}

// normalizeEmail returns the form in which addresses are stored and
// compared: trimmed, in lower case.
func normalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// accountByEmail returns the account of email, or errNotFound.
func (p *Provider) accountByEmail(ctx context.Context, email string) (*account, error) {
	return scanAccount(p.cfg.DB.QueryRow(ctx, `SELECT `+accountColumns+` FROM idp_accounts WHERE email = $1`,
		normalizeEmail(email)))
}

// accountByID returns the account id, or errNotFound.
func (p *Provider) accountByID(ctx context.Context, id string) (*account, error) {
	if _, ok := feedback.ParseUUID(id); !ok {
		return nil, errNotFound
	}
	return scanAccount(p.cfg.DB.QueryRow(ctx, `SELECT `+accountColumns+` FROM idp_accounts WHERE id = $1`, id))
}

// errNoAccount is what the account methods return for an unknown email.
var errNoAccount = feedback.Errorf(feedback.ENotFound, "No account has this email address.")

// CreateAccount makes the account of email, if there is none, and returns
// a link to set its password (and enrol TOTP): valid for 7 days, once.
// For an existing account it returns a new link, which replaces the
// unused ones: this is how an administrator resets a password or lets
// someone enrol TOTP. Returns EValidation if email is not an address.
func (p *Provider) CreateAccount(ctx context.Context, email string) (setPasswordURL string, err error) {
	defer wrap(&err, "CreateAccount")
	email = normalizeEmail(email)
	if !feedback.ValidEmail(email) {
		return "", feedback.Errorf(feedback.EValidation, "This is not an email address.")
	}
	token, hash := secret.NewToken(linkPrefix)
	now := p.now()
	err = p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO idp_accounts (id, email, totp_last_step, created_at) VALUES ($1, $2, 0, $3)
			ON CONFLICT (email) DO NOTHING`, feedback.NewIDAt(now), email, now)
		if err != nil {
			return err
		}
		var id string
		if err := tx.QueryRow(ctx, `SELECT id FROM idp_accounts WHERE email = $1`, email).Scan(&id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM idp_password_links WHERE account_id = $1 AND used_at IS NULL`, id); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO idp_password_links (hash, account_id, created_at, expires_at)
			VALUES ($1, $2, $3, $4)`, hash, id, now, now.Add(linkTTL))
		return err
	})
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(p.cfg.Issuer, "/") + passwordPath + "?token=" + token, nil
}

// SetPassword sets the password of the account of email, under the
// password policy, and revokes the account's tokens. Returns ENotFound
// for an unknown email, EValidation for a password the policy refuses.
func (p *Provider) SetPassword(ctx context.Context, email, password string) (err error) {
	defer wrap(&err, "SetPassword")
	a, err := p.accountByEmail(ctx, email)
	if errors.Is(err, errNotFound) {
		return errNoAccount
	}
	if err != nil {
		return err
	}
	if msg := passwordProblem(a.email, password); msg != "" {
		return feedback.Errorf(feedback.EValidation, "%s", msg)
	}
	hash, err := hashPassword(ctx, password)
	if err != nil {
		return err
	}
	return p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		return setPassword(ctx, tx, a.id, hash, p.now())
	})
}

// setPassword stores an account's password hash and revokes its tokens.
func setPassword(ctx context.Context, tx sqlstore.Conn, accountID, hash string, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE idp_accounts SET password_hash = $2, password_set_at = $3 WHERE id = $1`,
		accountID, hash, now)
	if err != nil {
		return err
	}
	return deleteTokens(ctx, tx, "account_id = $1", accountID)
}

// EnrolTOTP gives the account of email a new TOTP secret, replacing any
// other, and returns it with its otpauth:// URL. Returns ENotFound for
// an unknown email.
func (p *Provider) EnrolTOTP(ctx context.Context, email string) (otpauthURL string, secret string, err error) {
	defer wrap(&err, "EnrolTOTP")
	a, err := p.accountByEmail(ctx, email)
	if errors.Is(err, errNotFound) {
		return "", "", errNoAccount
	}
	if err != nil {
		return "", "", err
	}
	secret = newTOTPSecret()
	err = p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		return p.storeTOTP(ctx, tx, a.id, secret, 0)
	})
	if err != nil {
		return "", "", err
	}
	return keyURI(a.email, secret), secret, nil
}

// RequireMFA turns the organisation-wide second factor on or off. While
// it is on, an account without TOTP cannot sign in: it must enrol
// through a set-password link ([Provider.CreateAccount]).
func (p *Provider) RequireMFA(ctx context.Context, required bool) (err error) {
	defer wrap(&err, "RequireMFA")
	_, err = p.cfg.DB.Exec(ctx, `UPDATE idp_settings SET mfa_required = $1 WHERE id = 1`, required)
	return err
}

// mfaRequired reports whether the organisation requires a second factor.
func (p *Provider) mfaRequired(ctx context.Context) (required bool, err error) {
	defer wrap(&err, "mfaRequired")
	err = p.cfg.DB.QueryRow(ctx, `SELECT mfa_required FROM idp_settings WHERE id = 1`).Scan(&required)
	return required, err
}
