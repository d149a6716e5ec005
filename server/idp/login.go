package idp

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"
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
		http.Redirect(w, r, p.callbackURL(a.id), http.StatusSeeOther)
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
	keys := signInKeys(r, email)
	if !p.allowed(w, r, keys) {
		return
	}
	acct, err := p.checkPassword(ctx, email, r.PostForm.Get("password"))
	switch {
	case errors.Is(err, errNotFound):
		p.failed(w, r, keys, "login", wrongCredentials)
	case err != nil:
		p.internalError(w, r, err)
	default:
		p.afterPassword(w, r, a, acct, keys[0])
	}
}

// afterPassword finishes sign-in a of acct, or asks for its one-time
// code, or refuses it when the organisation or the client requires a
// second factor that acct has not enrolled. The failures of the address
// are forgotten only when the sign-in is complete, so that the right
// password does not reset the count of wrong codes.
func (p *Provider) afterPassword(w http.ResponseWriter, r *http.Request, a *authRequest, acct *account, key throttleKey) {
	ctx := r.Context()
	if acct.totpSecret != nil {
		p.step(w, r, p.recordPassword(ctx, a.id, acct.id), func() {
			p.render(w, http.StatusOK, "code", pageData{Title: "Two-step verification"})
		})
		return
	}
	required, err := p.secondFactorRequired(ctx, a)
	if err == nil && !required {
		err = p.clear(ctx, key)
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
	p.finish(w, r, a.id, acct.id, "pwd")
}

// codeStep checks the one-time code of sign-in a, whose password step
// passed, and finishes it.
func (p *Provider) codeStep(w http.ResponseWriter, r *http.Request, a *authRequest) {
	if a.accountID == "" || a.passwordAt == nil || p.now().Sub(*a.passwordAt) > codeStepTTL {
		p.expired(w)
		return
	}
	acct, err := p.accountByID(r.Context(), a.accountID)
	if err != nil && !errors.Is(err, errNotFound) {
		p.internalError(w, r, err)
		return
	}
	if err != nil || acct.totpSecret == nil {
		p.expired(w)
		return
	}
	keys := signInKeys(r, acct.email)
	if !p.allowed(w, r, keys) {
		return
	}
	ok, err := p.useTOTP(r.Context(), acct, r.PostForm.Get("code"))
	if err == nil && !ok {
		p.failed(w, r, keys, "code", wrongCode)
		return
	}
	if err == nil {
		err = p.clear(r.Context(), keys[0])
	}
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.finish(w, r, a.id, acct.id, "pwd", "otp")
}

// allowed reports whether no key is locked, or writes the 429 page.
func (p *Provider) allowed(w http.ResponseWriter, r *http.Request, keys []throttleKey) bool {
	wait, err := p.throttled(r.Context(), keys)
	switch {
	case err != nil:
		p.internalError(w, r, err)
	case wait > 0:
		p.tooMany(w, wait)
	}
	return err == nil && wait == 0
}

// failed counts a failed attempt and shows the form page again with msg.
func (p *Provider) failed(w http.ResponseWriter, r *http.Request, keys []throttleKey, page, msg string) {
	if err := p.fail(r.Context(), keys); err != nil {
		p.internalError(w, r, err)
		return
	}
	if page == "login" {
		p.loginPage(w, r, http.StatusUnauthorized, msg)
		return
	}
	p.render(w, http.StatusUnauthorized, page, pageData{Title: "Two-step verification", Error: msg})
}

// finish completes sign-in id of accountID with amr and continues to op's
// callback, which redirects to the client with the code.
func (p *Provider) finish(w http.ResponseWriter, r *http.Request, id, accountID string, amr ...string) {
	p.step(w, r, p.complete(r.Context(), id, accountID, amr), func() {
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
	default:
		next()
	}
}

func (p *Provider) callbackURL(id string) string {
	return p.prefix + callbackPath + "?" + url.Values{"id": {id}}.Encode()
}

// checkPassword returns the account of email if password is its
// password, or errNotFound. An unknown email costs the same hash.
func (p *Provider) checkPassword(ctx context.Context, email, password string) (*account, error) {
	a, err := p.accountByEmail(ctx, email)
	if err != nil && !errors.Is(err, errNotFound) {
		return nil, err
	}
	encoded := dummyHash()
	if a != nil && a.passwordHash != "" {
		encoded = a.passwordHash
	}
	ok, err := verifyPassword(ctx, encoded, password)
	switch {
	case err != nil:
		return nil, err
	case !ok || a == nil || a.passwordHash == "":
		return nil, errNotFound
	}
	return a, nil
}
