package oidcfed

import (
	"context"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/secret"
)

// CallbackPath is where federations' providers send the browser back,
// under the issuer's path.
const CallbackPath = "/federation/callback"

// stateTTL is how long a sign-in may stay at a federation's provider.
const stateTTL = 10 * time.Minute

// RedirectURI returns the callback to register at every federation's
// provider for the embedded provider of issuer: {issuer}/federation/callback.
func RedirectURI(issuer string) string { return idp.Env{Issuer: issuer}.URL(CallbackPath) }

// federator signs people in through OpenID providers: idp.Federator.
type federator struct {
	h   idp.Host
	env idp.Env
	ups upstreams // federations' providers, discovered
}

// New returns the federator of OpenID federations (idp.KindOIDC) of the
// provider h: give it to idp.Config.Federators.
func New(h idp.Host) idp.Federator { return &federator{h: h, env: h.Env()} }

// Kind returns idp.KindOIDC.
func (*federator) Kind() string { return idp.KindOIDC }

// Routes returns the callback, served as a page.
func (fr *federator) Routes() []idp.Route {
	return []idp.Route{{Pattern: "GET " + CallbackPath, Handler: http.HandlerFunc(fr.handleCallback), Page: true}}
}

// state is a sign-in sent to a federation's provider, as the callback
// finds it.
type state struct {
	signInID, federationID, nonce, verifier string
}

// Start sends the browser of sign-in s to f's provider, with state, nonce
// and PKCE (S256). The state is stored (as a hash) with the sign-in, and
// set in a cookie that only the callback reads: a callback counts only
// in the browser that started it.
func (fr *federator) Start(w http.ResponseWriter, r *http.Request, s *idp.SignIn, f *idp.Federation, loginHint string) {
	ctx := r.Context()
	up, err := fr.upstream(ctx, f)
	if err != nil {
		fr.h.Fail(w, r, s, f, err)
		return
	}
	st := state{s.ID(), f.ID, oauth2.GenerateVerifier(), oauth2.GenerateVerifier()}
	value := oauth2.GenerateVerifier()
	if err := fr.storeState(ctx, value, st); err != nil {
		fr.h.Error(w, r, err)
		return
	}
	http.SetCookie(w, fr.stateCookie(value, int(stateTTL/time.Second)))
	opts := []oauth2.AuthCodeOption{oidc.Nonce(st.nonce), oauth2.S256ChallengeOption(st.verifier)}
	if loginHint != "" {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", loginHint))
	}
	http.Redirect(w, r, up.oauth.AuthCodeURL(value, opts...), http.StatusSeeOther)
}

// stateCookie is the cookie that binds the state value to the browser
// for maxAge seconds (-1 deletes it), named after the state so that
// sign-ins in several tabs do not overwrite each other's; Lax, as the
// upstream's redirect back is a top-level navigation.
func (fr *federator) stateCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: "idp_federation_" + hex.EncodeToString(secret.Hash(value)[:6]), Value: value,
		Path: fr.env.Prefix + CallbackPath, MaxAge: maxAge, HttpOnly: true, Secure: fr.env.Secure(),
		SameSite: http.SameSiteLaxMode}
}

// storeState records st under the hash of its value, its PKCE verifier
// sealed.
func (fr *federator) storeState(ctx context.Context, value string, st state) error {
	now := fr.env.Now()
	return fr.env.Store.CreateIdPFederationState(ctx, &server.IdPFederationState{StateHash: secret.Hash(value),
		AuthRequestID: st.signInID, FederationID: st.federationID, Nonce: st.nonce,
		Verifier: fr.env.Keys.Seal([]byte(st.verifier), verifierAAD(value)), ExpiresAt: now.Add(stateTTL)}, now)
}

// verifierAAD binds a sealed PKCE verifier to its state.
func verifierAAD(value string) []byte {
	return append([]byte("idp:federation-verifier:"), secret.Hash(value)...)
}

// takeState returns the sign-in of the state value and deletes it (a
// state counts once); the store's feedback.ENotFound when there is none.
func (fr *federator) takeState(ctx context.Context, value string) (*state, error) {
	row, err := fr.env.Store.TakeIdPFederationState(ctx, secret.Hash(value), fr.env.Now())
	if err != nil {
		return nil, err
	}
	v, err := fr.env.Keys.Open(row.Verifier, verifierAAD(value))
	return &state{row.AuthRequestID, row.FederationID, row.Nonce, string(v)}, err
}

// handleCallback handles "GET /federation/callback?state=S&code=C" (or
// error=E): a federation's provider sends the browser back here. It
// checks the state against the browser's cookie and the stored sign-in,
// redeems the code, and has the provider finish the sign-in of the
// identity.
func (fr *federator) handleCallback(w http.ResponseWriter, r *http.Request) {
	ctx, q := r.Context(), r.URL.Query()
	value := q.Get("state")
	if !idp.Bound(w, r, value, fr.stateCookie(value, -1)) {
		fr.h.Error(w, r, idp.ErrExpired)
		return
	}
	st, err := fr.takeState(ctx, value)
	if err != nil {
		fr.h.Error(w, r, err)
		return
	}
	s, f, ok := fr.h.Resume(w, r, st.signInID, st.federationID)
	if !ok {
		return
	}
	if e := q.Get("error"); e != "" {
		fr.h.Fail(w, r, s, f, &idp.Refusal{Code: e})
		return
	}
	up, err := fr.upstream(ctx, f)
	var id *idp.Identity
	if err == nil {
		id, err = up.redeem(fr.clientContext(ctx), q.Get("code"), st.verifier, st.nonce)
	}
	if err != nil {
		fr.h.Fail(w, r, s, f, err)
		return
	}
	fr.h.Finish(w, r, s, f, *id)
}
