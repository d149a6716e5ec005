package idp

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// A signed-in user's own account (the dashboard's Account page): the
// account, a password change, and TOTP enrolled and removed without a
// set-password link. Every check of a password or code counts against
// the sign-in throttle of the account's address and the client's, as a
// sign-in does.

// Account is what a signed-in user sees of their account.
type Account struct {
	ID, Email string
	// Federation is the name of the organisation's provider that signs
	// the account in, "" for an account with a password here. The
	// organisation's provider manages the password and second factor of
	// a federated account.
	Federation string
	// HasPassword reports whether the account has a password.
	HasPassword bool
	// TOTP reports whether an authenticator app is enrolled.
	TOTP bool
}

// Self is a request about a signed-in user's own account: the account,
// and the client's address, which the throttle counts.
type Self struct {
	AccountID, ClientIP string
}

// PasswordChange is a change of password by its account's user.
type PasswordChange struct {
	Self
	Current, New string
	// Keep is the provider refresh token of the sign-in that asks
	// (the dashboard session's), whose tokens stay valid; "" keeps none.
	Keep string
}

// Account returns the account accountID. Returns ENotFound.
func (p *Provider) Account(ctx context.Context, accountID string) (_ *Account, err error) {
	defer wrap(&err, "Account")
	a, err := p.accountByID(ctx, accountID)
	if errors.Is(err, errNotFound) {
		return nil, errNoAccount
	}
	if err != nil {
		return nil, err
	}
	out := &Account{ID: a.ID, Email: a.Email, HasPassword: a.PasswordHash != "", TOTP: a.TOTPSecret != nil}
	f, err := p.federationOf(ctx, a.Email)
	switch {
	case err == nil:
		out.Federation = f.Name
	case !errors.Is(err, errNotFound):
		return nil, err
	}
	return out, nil
}

// ownAccount returns the account of s with a password here, or
// EConflict for a federated account or one without a password.
func (p *Provider) ownAccount(ctx context.Context, s Self) (*Account, error) {
	a, err := p.Account(ctx, s.AccountID)
	switch {
	case err != nil:
		return nil, err
	case a.Federation != "":
		return nil, feedback.Errorf(feedback.EConflict,
			"%s, your organisation's identity provider, manages your password and two-step verification.", a.Federation)
	case !a.HasPassword:
		return nil, feedback.Errorf(feedback.EConflict,
			"Your account has no password yet: ask an administrator for a set-up link.")
	}
	return a, nil
}

// ChangePassword sets the password of c's account to c.New once
// c.Current is checked, under the password policy, and revokes the
// account's tokens but those of c.Keep's sign-in. Returns EConflict for
// a federated account or one without a password, EValidation naming
// current_password when it is wrong, or new_password when the policy
// refuses it, ERateLimited while the throttle refuses attempts.
func (p *Provider) ChangePassword(ctx context.Context, c PasswordChange) (err error) {
	defer wrap(&err, "ChangePassword")
	a, err := p.ownAccount(ctx, c.Self)
	if err != nil {
		return err
	}
	if msg := passwordProblem(a.Email, c.New); msg != "" {
		return invalid("new_password", msg)
	}
	if err := p.checkOwnPassword(ctx, a, c.Self, c.Current, "current_password"); err != nil {
		return err
	}
	hash, err := hashPassword(ctx, c.New)
	if err != nil {
		return err
	}
	return p.cfg.Store.ChangeIdPPassword(ctx, a.ID, hash, p.signInOf(ctx, a.ID, c.Keep), p.now())
}

// signInOf returns the sign-in that the account's refresh token keep
// descends from, or "".
func (p *Provider) signInOf(ctx context.Context, accountID, keep string) string {
	if keep == "" {
		return ""
	}
	t, err := p.cfg.Store.IdPRefreshToken(ctx, secret.Hash(keep))
	if err != nil || t.AccountID != accountID {
		return ""
	}
	return t.AuthRequestID
}

// checkOwnPassword checks password as a's, counting the attempt against
// the throttle; a wrong one is EValidation naming param.
func (p *Provider) checkOwnPassword(ctx context.Context, a *Account, s Self, password, param string) error {
	att, err := p.reserveOwn(ctx, a, s)
	if err != nil {
		return err
	}
	_, err = p.checkPassword(ctx, a.Email, password)
	switch {
	case errors.Is(err, errNotFound):
		return invalid(param, "This is not your password.")
	case err != nil:
		return err
	}
	return p.refund(ctx, att, false)
}

// reserveOwn counts an attempt of s on a against the throttle, or
// returns ERateLimited.
func (p *Provider) reserveOwn(ctx context.Context, a *Account, s Self) (*attempt, error) {
	att, err := p.reserveAttempt(ctx, throttleKeys(a.Email, s.ClientIP))
	var locked errLocked
	if errors.As(err, &locked) {
		minutes := int((locked.wait + time.Minute - 1) / time.Minute)
		return nil, feedback.Errorf(feedback.ERateLimited,
			"There were too many wrong passwords or codes for this account or from this network: wait %s, then try again.",
			plural(minutes, "minute"))
	}
	return att, err
}

// BeginTOTP starts the enrolment of an authenticator app for the
// account of s, replacing an unfinished one: it returns the new secret
// and its otpauth:// URL, which ConfirmTOTP confirms within 15 minutes.
// Returns EConflict for a federated account, one without a password, or
// one that has TOTP already.
func (p *Provider) BeginTOTP(ctx context.Context, s Self) (secret, otpauthURL string, err error) {
	defer wrap(&err, "BeginTOTP")
	a, err := p.ownAccount(ctx, s)
	if err != nil {
		return "", "", err
	}
	if a.TOTP {
		return "", "", feedback.Errorf(feedback.EConflict, "Two-step verification is on already: remove it first.")
	}
	secret = newTOTPSecret()
	err = p.cfg.Store.BeginIdPTOTP(ctx, a.ID, p.sealTOTP(a.ID, secret), p.now().Add(enrolTTL))
	return secret, keyURI(a.Email, secret), err
}

// ConfirmTOTP finishes the enrolment BeginTOTP started with the app's
// current code, which counts as used. Returns EConflict when no
// enrolment is in progress (expired, or finished meanwhile), EValidation
// naming code for a wrong code, ERateLimited while the throttle refuses
// attempts.
func (p *Provider) ConfirmTOTP(ctx context.Context, s Self, code string) (err error) {
	defer wrap(&err, "ConfirmTOTP")
	a, err := p.ownAccount(ctx, s)
	if err != nil {
		return err
	}
	sealed, err := p.cfg.Store.IdPPendingTOTP(ctx, a.ID, p.now())
	if feedback.ErrorCode(err) == feedback.ENotFound {
		return errNoEnrolment
	}
	if err != nil {
		return err
	}
	plain, err := p.cfg.Keys.Open(sealed, totpAAD(a.ID))
	if err != nil {
		return err
	}
	att, err := p.reserveOwn(ctx, a, s)
	if err != nil {
		return err
	}
	step, ok := matchTOTP(string(plain), code, p.now())
	if !ok {
		return invalid("code", wrongCode)
	}
	if err := p.refund(ctx, att, false); err != nil {
		return err
	}
	err = p.cfg.Store.FinishIdPTOTP(ctx, a.ID, sealed, step, p.now())
	if feedback.ErrorCode(err) == feedback.ENotFound {
		return errNoEnrolment
	}
	return err
}

var errNoEnrolment = feedback.Errorf(feedback.EConflict,
	"No set-up of an authenticator app is in progress (it lasts 15 minutes): start again.")

// RemoveTOTP removes the account's authenticator app once its password
// is checked. Returns EConflict as BeginTOTP does, and when no app is
// enrolled; EValidation naming password when it is wrong; ERateLimited
// while the throttle refuses attempts.
func (p *Provider) RemoveTOTP(ctx context.Context, s Self, password string) (err error) {
	defer wrap(&err, "RemoveTOTP")
	a, err := p.ownAccount(ctx, s)
	if err != nil {
		return err
	}
	if !a.TOTP {
		return feedback.Errorf(feedback.EConflict, "Two-step verification is off already.")
	}
	if err := p.checkOwnPassword(ctx, a, s, password, "password"); err != nil {
		return err
	}
	return p.cfg.Store.RemoveIdPTOTP(ctx, a.ID)
}

// invalid returns EValidation naming param, with msg.
func invalid(param, msg string) error {
	return &feedback.Error{Code: feedback.EValidation, Message: msg,
		Params: []feedback.InvalidParam{{Name: param, Reason: msg}}}
}

// plural returns n and unit, with an s unless n is 1.
func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}
