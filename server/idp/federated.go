package idp

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"

	"github.com/feedbackhq/feedback/server/auth"
)

// host is the provider as its federators see it.
type host struct{ p *Provider }

var _ Host = host{}

// Env returns the provider's configuration.
func (h host) Env() Env {
	c := h.p.cfg
	return Env{Issuer: c.Issuer, Prefix: h.p.prefix, Now: h.p.now, Keys: c.Keys, Store: c.Store,
		HTTPClient: c.HTTPClient, Insecure: c.Insecure}
}

// Resume returns a sign-in in progress and its federation.
func (h host) Resume(w http.ResponseWriter, r *http.Request, signInID, federationID string) (*SignIn, *Federation, bool) {
	p, ctx := h.p, r.Context()
	a, err := p.authRequest(ctx, signInID)
	if err == nil && a.Done() {
		err = errNotFound
	}
	var f *Federation
	if err == nil {
		f, err = p.federationByID(ctx, federationID)
	}
	if err != nil {
		p.step(w, r, err, nil)
		return nil, nil, false
	}
	return &SignIn{a}, f, true
}

// Finish completes a federated sign-in.
func (h host) Finish(w http.ResponseWriter, r *http.Request, s *SignIn, f *Federation, id Identity) {
	h.p.finishFederated(w, r, s.a, f, id)
}

// Fail writes the page of a federated sign-in that did not succeed.
func (h host) Fail(w http.ResponseWriter, r *http.Request, s *SignIn, f *Federation, err error) {
	var refusal *Refusal
	if errors.As(err, &refusal) {
		h.p.upstreamError(w, s.ID(), f, refusal.Code)
		return
	}
	h.p.upstreamFailed(w, r, s.ID(), f, err)
}

// Error writes the page of an expired sign-in or of an internal error.
func (h host) Error(w http.ResponseWriter, r *http.Request, err error) {
	h.p.step(w, r, orNotFound(err), nil)
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

// startFederation hands sign-in a to the federator of f's kind, which
// sends the browser to f's provider.
func (p *Provider) startFederation(w http.ResponseWriter, r *http.Request, a *authRequest, f *Federation, loginHint string) {
	fr, ok := p.federators[f.Kind]
	if !ok {
		p.loginPage(w, r, http.StatusBadRequest, "This way of signing in is no longer available.")
		return
	}
	fr.Start(w, r, &SignIn{a}, f, loginHint)
}

// finishFederated completes sign-in a of the account of id, which it
// makes on a first sign-in, unless id's address is not of f's domains
// ([Federation.Serves]), or the organisation or the client requires a
// second factor that f does not vouch for.
func (p *Provider) finishFederated(w http.ResponseWriter, r *http.Request, a *authRequest, f *Federation, id Identity) {
	ctx := r.Context()
	email, ok := f.Serves(id.Email)
	if !ok {
		p.upstreamFailed(w, r, a.ID, f, ErrUnverified)
		return
	}
	required, err := p.secondFactorRequired(ctx, a)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if required && !passesMFA(id, f) {
		p.message(w, http.StatusForbidden, "Two-step verification required",
			"Signing in here requires two-step verification, and signing in with "+f.Name+
				" did not confirm a second factor here.",
			"Ask an administrator to let "+f.Name+" vouch for two-step verification, or for a set-up link "+
				"that adds an authenticator app to your account.")
		return
	}
	accountID, err := p.federatedAccount(ctx, email)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.finish(w, r, a.ID, accountID, false, methods(id, f)...)
}

// methods returns the amr of a federated sign-in through f: "fed", after
// the upstream's when f trusts them.
func methods(id Identity, f *Federation) []string {
	if !f.TrustUpstreamMFA {
		return []string{"fed"}
	}
	amr := slices.DeleteFunc(slices.Clone(id.AMR), func(m string) bool { return m == "fed" || m == "" })
	return append(amr, "fed")
}

// passesMFA reports whether a federated sign-in through f counts as two
// factors: f trusts its provider's amr, which names a second factor.
func passesMFA(id Identity, f *Federation) bool {
	return f.TrustUpstreamMFA && auth.HasSecondFactor(id.AMR)
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
// fault there, or an answer that does not verify) and writes a page with
// a way back.
func (p *Provider) upstreamFailed(w http.ResponseWriter, r *http.Request, authRequestID string, f *Federation, err error) {
	p.log.WarnContext(r.Context(), "idp: federation", "federation", f.ID, "issuer", f.Issuer, "err", err)
	msg := "Signing in with " + f.Name + " failed. Try again in a moment."
	if errors.Is(err, ErrUnverified) {
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
