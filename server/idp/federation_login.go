package idp

import (
	"context"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
)

// federationCallbackPath is where federations' providers send the
// browser back, under the issuer's path.
const federationCallbackPath = "/federation/callback"

// federationTTL is how long a sign-in may stay at a federation's
// provider.
const federationTTL = 10 * time.Minute

// federationState is a sign-in sent to a federation's provider: a row of
// idp_federation_states.
type federationState struct {
	authRequestID, federationID, nonce, verifier string
}

// startFederation sends the browser of sign-in a to f's provider, with
// state, nonce and PKCE (S256). The state is stored (as a hash) with the
// sign-in, and set in a cookie that only the callback reads: a callback
// counts only in the browser that started it.
func (p *Provider) startFederation(w http.ResponseWriter, r *http.Request, a *authRequest, f *Federation, loginHint string) {
	if p.samlStarted(w, r, a, f) {
		return
	}
	ctx := r.Context()
	up, err := p.upstream(ctx, f)
	if err != nil {
		p.upstreamFailed(w, r, a.ID, f, err)
		return
	}
	state, nonce, verifier := oauth2.GenerateVerifier(), oauth2.GenerateVerifier(), oauth2.GenerateVerifier()
	if err := p.storeFederationState(ctx, state, federationState{a.ID, f.ID, nonce, verifier}); err != nil {
		p.internalError(w, r, err)
		return
	}
	http.SetCookie(w, p.stateCookie(state, int(federationTTL/time.Second)))
	opts := []oauth2.AuthCodeOption{oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)}
	if loginHint != "" {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", loginHint))
	}
	http.Redirect(w, r, up.oauth.AuthCodeURL(state, opts...), http.StatusSeeOther)
}

// stateCookie is the cookie that binds state to the browser for maxAge
// seconds (-1 deletes it), named after the state so that sign-ins in
// several tabs do not overwrite each other's; Lax, as the upstream's
// redirect back is a top-level navigation.
func (p *Provider) stateCookie(state string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: "idp_federation_" + hex.EncodeToString(secret.Hash(state)[:6]), Value: state,
		Path: p.prefix + federationCallbackPath, MaxAge: maxAge, HttpOnly: true,
		Secure: strings.HasPrefix(p.cfg.Issuer, "https:"), SameSite: http.SameSiteLaxMode}
}

// storeFederationState records st under the hash of state.
func (p *Provider) storeFederationState(ctx context.Context, state string, st federationState) (err error) {
	defer wrap(&err, "storeFederationState")
	now := p.now()
	return p.cfg.Store.CreateIdPFederationState(ctx, &server.IdPFederationState{StateHash: secret.Hash(state),
		AuthRequestID: st.authRequestID, FederationID: st.federationID, Nonce: st.nonce,
		Verifier: p.cfg.Keys.Seal([]byte(st.verifier), verifierAAD(state)), ExpiresAt: now.Add(federationTTL)}, now)
}

// verifierAAD binds a sealed PKCE verifier to its state.
func verifierAAD(state string) []byte {
	return append([]byte("idp:federation-verifier:"), secret.Hash(state)...)
}

// takeFederationState returns the sign-in of state and deletes it (a
// state counts once), or errNotFound.
func (p *Provider) takeFederationState(ctx context.Context, state string) (_ *federationState, err error) {
	defer wrap(&err, "takeFederationState")
	row, err := p.cfg.Store.TakeIdPFederationState(ctx, secret.Hash(state), p.now())
	if err != nil {
		return nil, orNotFound(err)
	}
	v, err := p.cfg.Keys.Open(row.Verifier, verifierAAD(state))
	return &federationState{row.AuthRequestID, row.FederationID, row.Nonce, string(v)}, err
}

// handleFederationCallback handles "GET /federation/callback?state=S&code=C"
// (or error=E): a federation's provider sends the browser back here. It
// checks the state against the browser's cookie and the stored sign-in,
// redeems the code, and completes the sign-in of the identity.
func (p *Provider) handleFederationCallback(w http.ResponseWriter, r *http.Request) {
	ctx, q := r.Context(), r.URL.Query()
	st, ok := p.callbackState(w, r, q.Get("state"))
	if !ok {
		return
	}
	a, err := p.authRequest(ctx, st.authRequestID)
	if err == nil && a.Done() {
		err = errNotFound
	}
	var f *Federation
	if err == nil {
		f, err = p.federationByID(ctx, st.federationID)
	}
	if err != nil {
		p.step(w, r, err, nil)
		return
	}
	if e := q.Get("error"); e != "" {
		p.upstreamError(w, a.ID, f, e)
		return
	}
	up, err := p.upstream(ctx, f)
	var id *upstreamIdentity
	if err == nil {
		id, err = up.redeem(p.clientContext(ctx), q.Get("code"), st.verifier, st.nonce)
	}
	if err != nil {
		p.upstreamFailed(w, r, a.ID, f, err)
		return
	}
	p.finishFederated(w, r, a, f, id)
}

// callbackState returns the sign-in that state names, if the browser
// holds its cookie, or writes the page that says it has expired. The
// cookie is deleted either way.
func (p *Provider) callbackState(w http.ResponseWriter, r *http.Request, state string) (*federationState, bool) {
	return takeBound(p, w, r, state, p.stateCookie(state, -1), p.takeFederationState)
}

// takeBound checks that the browser holds the cookie that binds value to
// it (deleting it with gone), then takes what value names with take; it
// writes the page that says the sign-in expired when either fails.
func takeBound[T any](p *Provider, w http.ResponseWriter, r *http.Request, value string, gone *http.Cookie,
	take func(context.Context, string) (*T, error)) (*T, bool) {
	c, err := r.Cookie(gone.Name)
	if err == nil {
		http.SetCookie(w, gone)
	}
	if value == "" || err != nil || subtle.ConstantTimeCompare([]byte(c.Value), []byte(value)) != 1 {
		p.expired(w)
		return nil, false
	}
	v, err := take(r.Context(), value)
	switch {
	case errors.Is(err, errNotFound):
		p.expired(w)
	case err != nil:
		p.internalError(w, r, err)
	}
	return v, err == nil
}

// finishFederated completes sign-in a of the account of id, which it
// makes on a first sign-in, unless the organisation or the client
// requires a second factor that f does not vouch for.
func (p *Provider) finishFederated(w http.ResponseWriter, r *http.Request, a *authRequest, f *Federation, id *upstreamIdentity) {
	ctx := r.Context()
	required, err := p.secondFactorRequired(ctx, a)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if required && !id.passesMFA(f) {
		p.message(w, http.StatusForbidden, "Two-step verification required",
			"Signing in here requires two-step verification, and signing in with "+f.Name+
				" did not confirm a second factor here.",
			"Ask an administrator to let "+f.Name+" vouch for two-step verification, or for a set-up link "+
				"that adds an authenticator app to your account.")
		return
	}
	accountID, err := p.federatedAccount(ctx, id.email)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.finish(w, r, a.ID, accountID, false, id.methods(f)...)
}

// federatedAccount returns the id of the account of email, which it
// makes, without a password, when there is none.
func (p *Provider) federatedAccount(ctx context.Context, email string) (id string, err error) {
	defer wrap(&err, "federatedAccount")
	return p.cfg.Store.EnsureIdPAccount(ctx, email, p.now())
}

// upstreamError writes the page of an error that f's provider sent back,
// with a way back to the login page.
func (p *Provider) upstreamError(w http.ResponseWriter, authRequestID string, f *Federation, code string) {
	why := f.Name + " did not sign you in (" + truncate(code, 64) + ")."
	if code == "access_denied" {
		why = "Signing in with " + f.Name + " was cancelled or refused."
	}
	p.render(w, http.StatusForbidden, "message", pageData{Title: "Not signed in", Back: p.loginURL(authRequestID),
		Lines: []string{why, "Go back to try again, or ask your organisation's administrator."}})
}

// upstreamFailed logs why f's provider could not sign someone in (a
// fault there, or a token that does not verify) and writes a page with
// a way back.
func (p *Provider) upstreamFailed(w http.ResponseWriter, r *http.Request, authRequestID string, f *Federation, err error) {
	p.log.WarnContext(r.Context(), "idp: federation", "federation", f.ID, "issuer", f.Issuer, "err", err)
	msg := "Signing in with " + f.Name + " failed. Try again in a moment."
	if errors.Is(err, errUnverified) {
		msg = f.Name + " did not give a verified email address of your organisation's domains."
	}
	p.render(w, http.StatusBadGateway, "message", pageData{Title: "Not signed in", Back: p.loginURL(authRequestID),
		Lines: []string{msg}})
}

// loginURL returns the login page of a sign-in.
func (p *Provider) loginURL(authRequestID string) string {
	return p.prefix + loginPath + "?" + url.Values{loginParam: {authRequestID}}.Encode()
}

// truncate returns s cut to n bytes at most.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// federationStep handles the "Sign in with" button of a federation.
func (p *Provider) federationStep(w http.ResponseWriter, r *http.Request, a *authRequest) {
	f, err := p.federationByID(r.Context(), r.PostForm.Get("federation"))
	switch {
	case errors.Is(err, errNotFound):
		p.loginPage(w, r, http.StatusBadRequest, "This way of signing in is no longer available.")
	case err != nil:
		p.internalError(w, r, err)
	default:
		p.startFederation(w, r, a, f, "")
	}
}

// federatedEmail answers the login form for an email of f's domains (err
// is the lookup's): with only the email, it goes to f's provider; a
// password is refused, as f signs in these addresses.
func (p *Provider) federatedEmail(w http.ResponseWriter, r *http.Request, a *authRequest, f *Federation, err error) {
	switch {
	case err != nil:
		p.internalError(w, r, err)
	case r.PostForm.Get("password") != "":
		p.loginPage(w, r, http.StatusForbidden, "Your organisation signs in through "+f.Name+
			": use the button “Sign in with "+f.Name+"”, not a password.")
	default:
		p.startFederation(w, r, a, f, normalizeEmail(r.PostForm.Get("email")))
	}
}
