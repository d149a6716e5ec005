package idp

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// codeStepTTL is how long after the password step its one-time code may
// come.
const codeStepTTL = 5 * time.Minute

// Messages of the login page. A wrong email and a wrong password read the
// same.
const (
	wrongCredentials = "Wrong email or password."
	wrongCode        = "Wrong code. Enter the code your authenticator app shows now."
)

// handleLoginPage handles "GET /login?authRequestID=ID": the email and
// password form of a sign-in.
func (p *Provider) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	a, ok := p.signIn(w, r)
	if !ok {
		return
	}
	if a.Done() {
		http.Redirect(w, r, p.callbackURL(a.ID), http.StatusSeeOther)
		return
	}
	p.loginPage(w, r, http.StatusOK, "")
}

// loginPage writes the login form with status and the alert msg, and a
// button per federation.
func (p *Provider) loginPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	buttons, err := p.federationButtons(r.Context())
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.render(w, status, "login", pageData{Title: "Sign in", Error: msg, Federations: buttons})
}

// handleLogin handles "POST /login?authRequestID=ID": the password step
// (email, password), or the one-time code step (code) that follows it.
// Both forms post to the page's own URL.
func (p *Provider) handleLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		p.message(w, http.StatusBadRequest, "Sign in", "The form could not be read. Go back and try again.")
		return
	}
	a, ok := p.signIn(w, r)
	if !ok {
		return
	}
	switch {
	case r.PostForm.Has("code"):
		p.codeStep(w, r, a)
	case r.PostForm.Has("federation"):
		p.federationStep(w, r, a)
	default:
		p.passwordStep(w, r, a)
	}
}

// signIn returns the sign-in the request names, or writes the page that
// says it has expired.
func (p *Provider) signIn(w http.ResponseWriter, r *http.Request) (*authRequest, bool) {
	a, err := p.authRequest(r.Context(), r.URL.Query().Get(loginParam))
	switch {
	case errors.Is(err, errNotFound):
		p.expired(w)
	case err != nil:
		p.internalError(w, r, err)
	}
	return a, err == nil
}

// expired writes the page of a sign-in that is unknown or too old.
func (p *Provider) expired(w http.ResponseWriter) {
	p.message(w, http.StatusBadRequest, "Sign-in expired",
		"This sign-in has expired or was completed already.",
		"Go back to the application and sign in again.")
}

// passwordStep checks the email and password of sign-in a, then finishes
// it or asks for a one-time code.
func (p *Provider) passwordStep(w http.ResponseWriter, r *http.Request, a *authRequest) {
	ctx, email := r.Context(), r.PostForm.Get("email")
	if f, err := p.federationOf(ctx, email); !errors.Is(err, errNotFound) {
		p.federatedEmail(w, r, a, f, err)
		return
	}
	att, ok := p.reserve(w, r, signInKeys(r, email))
	if !ok {
		return
	}
	acct, err := p.checkPassword(ctx, email, r.PostForm.Get("password"))
	switch {
	case errors.Is(err, errNotFound):
		p.failed(w, r, "login", wrongCredentials)
	case err != nil:
		p.internalError(w, r, err)
	default:
		p.afterPassword(w, r, a, acct, att)
	}
}

// afterPassword finishes sign-in a of acct, or asks for its one-time
// code, or refuses it when the organisation or the client requires a
// second factor that acct has not enrolled. The right password refunds
// its attempt; the failures of the address are forgotten only when the
// sign-in is complete, so that it does not reset the count of wrong
// codes.
func (p *Provider) afterPassword(w http.ResponseWriter, r *http.Request, a *authRequest, acct *server.IdPAccount, att *attempt) {
	ctx := r.Context()
	if acct.TOTPSecret != nil {
		err := p.refund(ctx, att, false)
		if err == nil {
			err = p.recordPassword(ctx, a.ID, acct.ID)
		}
		p.step(w, r, err, func() {
			p.render(w, http.StatusOK, "code", pageData{Title: "Two-step verification"})
		})
		return
	}
	required, err := p.secondFactorRequired(ctx, a)
	if err == nil {
		err = p.refund(ctx, att, !required)
	}
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if required {
		p.message(w, http.StatusForbidden, "Two-step verification required",
			"Signing in here requires two-step verification, and your account has no authenticator app yet.",
			"Ask an administrator for a set-up link: it lets you set your password and add an authenticator app. "+
				"Then sign in again.")
		return
	}
	p.finish(w, r, a.ID, acct.ID, false, "pwd")
}

// codeStep checks the one-time code of sign-in a, whose password step
// passed, and finishes it.
func (p *Provider) codeStep(w http.ResponseWriter, r *http.Request, a *authRequest) {
	if a.AccountID == "" || a.PasswordAt == nil || p.now().Sub(*a.PasswordAt) > codeStepTTL {
		p.expired(w)
		return
	}
	acct, err := p.accountByID(r.Context(), a.AccountID)
	if err != nil && !errors.Is(err, errNotFound) {
		p.internalError(w, r, err)
		return
	}
	if err != nil || acct.TOTPSecret == nil {
		p.expired(w)
		return
	}
	att, ok := p.reserve(w, r, signInKeys(r, acct.Email))
	if !ok {
		return
	}
	ok, err = p.useTOTP(r.Context(), acct, r.PostForm.Get("code"))
	if err == nil && !ok {
		p.failed(w, r, "code", wrongCode)
		return
	}
	if err == nil {
		err = p.refund(r.Context(), att, true)
	}
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.finish(w, r, a.ID, acct.ID, true, "pwd", "otp")
}

// reserve counts an attempt against keys before its check (see
// [Provider.reserveAttempt]), or writes the 429 page when a key is locked.
func (p *Provider) reserve(w http.ResponseWriter, r *http.Request, keys []throttleKey) (*attempt, bool) {
	a, err := p.reserveAttempt(r.Context(), keys)
	var locked errLocked
	switch {
	case errors.As(err, &locked):
		p.tooMany(w, locked.wait)
	case err != nil:
		p.internalError(w, r, err)
	}
	return a, err == nil
}

// failed shows the form page again with msg, after a check that failed
// (its attempt stays counted).
func (p *Provider) failed(w http.ResponseWriter, r *http.Request, page, msg string) {
	if page == "login" {
		p.loginPage(w, r, http.StatusUnauthorized, msg)
		return
	}
	p.render(w, http.StatusUnauthorized, page, pageData{Title: "Two-step verification", Error: msg})
}

// finish completes sign-in id of accountID with amr (with afterPassword,
// only after its password step) and continues to op's callback, which
// redirects to the client with the code.
func (p *Provider) finish(w http.ResponseWriter, r *http.Request, id, accountID string, afterPassword bool, amr ...string) {
	p.step(w, r, p.complete(r.Context(), id, accountID, afterPassword, amr...), func() {
		http.Redirect(w, r, p.callbackURL(id), http.StatusSeeOther)
	})
}

// step runs next after a sign-in's update, or writes the page of its
// error.
func (p *Provider) step(w http.ResponseWriter, r *http.Request, err error, next func()) {
	switch {
	case errors.Is(err, errNotFound):
		p.expired(w)
	case err != nil:
		p.internalError(w, r, err)
	case next != nil:
		next()
	}
}

func (p *Provider) callbackURL(id string) string {
	return p.prefix + callbackPath + "?" + url.Values{"id": {id}}.Encode()
}

// checkPassword returns the account of email if password is its
// password, or errNotFound. An unknown email costs the same hash.
func (p *Provider) checkPassword(ctx context.Context, email, password string) (*server.IdPAccount, error) {
	a, err := p.accountByEmail(ctx, email)
	if err != nil && !errors.Is(err, errNotFound) {
		return nil, err
	}
	encoded := dummyHash()
	if a != nil && a.PasswordHash != "" {
		encoded = a.PasswordHash
	}
	ok, err := verifyPassword(ctx, encoded, password)
	switch {
	case err != nil:
		return nil, err
	case !ok || a == nil || a.PasswordHash == "":
		return nil, errNotFound
	}
	return a, nil
}
