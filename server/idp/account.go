package idp

import (
	"context"
	"errors"
	"strings"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// normalizeEmail returns the form in which addresses are stored and
// compared: trimmed, in lower case.
func normalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// accountByEmail returns the account of email, or errNotFound.
func (p *Provider) accountByEmail(ctx context.Context, email string) (*server.IdPAccount, error) {
	a, err := p.cfg.Store.IdPAccountByEmail(ctx, normalizeEmail(email))
	return a, orNotFound(err)
}

// accountByID returns the account id, or errNotFound.
func (p *Provider) accountByID(ctx context.Context, id string) (*server.IdPAccount, error) {
	a, err := p.cfg.Store.IdPAccount(ctx, id)
	return a, orNotFound(err)
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
	if _, err := p.cfg.Store.CreateIdPPasswordLink(ctx, email, hash, now, now.Add(linkTTL)); err != nil {
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
	if msg := passwordProblem(a.Email, password); msg != "" {
		return feedback.Errorf(feedback.EValidation, "%s", msg)
	}
	hash, err := hashPassword(ctx, password)
	if err != nil {
		return err
	}
	return p.cfg.Store.SetIdPPassword(ctx, a.ID, hash, p.now())
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
	if err := p.cfg.Store.SetIdPTOTP(ctx, a.ID, p.sealTOTP(a.ID, secret), 0, p.now()); err != nil {
		return "", "", err
	}
	return keyURI(a.Email, secret), secret, nil
}

// RequireMFA turns the organisation-wide second factor on or off. While
// it is on, an account without TOTP cannot sign in: it must enrol
// through a set-password link ([Provider.CreateAccount]).
func (p *Provider) RequireMFA(ctx context.Context, required bool) (err error) {
	defer wrap(&err, "RequireMFA")
	return p.cfg.Store.SetIdPMFARequired(ctx, required)
}

// mfaRequired reports whether the organisation requires a second factor.
func (p *Provider) mfaRequired(ctx context.Context) (required bool, err error) {
	defer wrap(&err, "mfaRequired")
	return p.cfg.Store.IdPMFARequired(ctx)
}
