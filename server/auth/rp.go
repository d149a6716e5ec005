package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Config names the identity provider and this client's registration.
type Config struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	RedirectURL  string // {base}/auth/callback
	// PostLogoutURL is where the provider's end_session_endpoint
	// returns after a sign-out: {base}/auth/signed-out, registered at
	// the provider as a post-logout redirect URI.
	PostLogoutURL string
	// RequireMFA asks the provider for a second factor in the
	// authorization request (as its discovery document allows) and
	// refuses a sign-in whose ID token names none in amr.
	RequireMFA bool
	// HTTPClient talks to the provider; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// Enabled reports whether an identity provider is configured.
func (c Config) Enabled() bool { return c.Issuer != "" && c.ClientID != "" }

// RP is the relying party. It discovers the provider on first use, so
// that an embedded provider served by the same process can start later.
type RP struct {
	cfg Config

	mu       sync.Mutex
	provider *oidc.Provider
	oauth    oauth2.Config
	verifier *oidc.IDTokenVerifier
	meta     metadata
	mfa      []oauth2.AuthCodeOption // the authorization request's parameters asking for a second factor
}

// metadata is what the relying party reads from the provider's
// discovery document beyond go-oidc's endpoints; empty strings and lists
// mean the provider does not offer it.
type metadata struct {
	Revocation      string   `json:"revocation_endpoint"`
	EndSession      string   `json:"end_session_endpoint"`
	ACRValues       []string `json:"acr_values_supported"`
	ClaimsParameter bool     `json:"claims_parameter_supported"`
	Claims          []string `json:"claims_supported"`
}

// NewRP returns a relying party for cfg.
func NewRP(cfg Config) *RP { return &RP{cfg: cfg} }

// Login is a sign-in in progress, kept in a short-lived cookie between
// the redirect to the provider and the callback.
type Login struct {
	State    string    `json:"s"`
	Nonce    string    `json:"n"`
	Verifier string    `json:"v"`
	ReturnTo string    `json:"r"`
	Expires  time.Time `json:"e"`
}

// Identity is what a verified sign-in tells about the user.
type Identity struct {
	Issuer  string
	Subject string
	Email   string
	Name    string
	AMR     []string
	// RefreshToken is the provider's refresh token, if it gave one; the
	// session keeps it (sealed) to renew it hourly and to revoke it.
	RefreshToken string
	// IDToken is the raw ID token, which the session keeps (sealed) for
	// the id_token_hint of a sign-out.
	IDToken string
}

func (rp *RP) ctx(ctx context.Context) context.Context {
	if rp.cfg.HTTPClient != nil {
		return oidc.ClientContext(ctx, rp.cfg.HTTPClient)
	}
	return ctx
}

// discover fetches the provider's metadata once.
func (rp *RP) discover(ctx context.Context) error {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.provider != nil {
		return nil
	}
	p, err := oidc.NewProvider(rp.ctx(ctx), rp.cfg.Issuer)
	if err != nil {
		return fmt.Errorf("auth: discover %s: %w", rp.cfg.Issuer, err)
	}
	var meta metadata
	_ = p.Claims(&meta)
	rp.provider, rp.meta = p, meta
	if rp.cfg.RequireMFA {
		rp.mfa = mfaRequest(meta)
	}
	rp.verifier = p.Verifier(&oidc.Config{ClientID: rp.cfg.ClientID})
	rp.oauth = oauth2.Config{ClientID: rp.cfg.ClientID, ClientSecret: rp.cfg.ClientSecret, Endpoint: p.Endpoint(),
		RedirectURL: rp.cfg.RedirectURL, Scopes: []string{oidc.ScopeOpenID, "email", "profile", oidc.ScopeOfflineAccess}}
	return nil
}

// Begin starts a sign-in that returns to returnTo: the provider's
// authorization URL and the login to keep until the callback.
func (rp *RP) Begin(ctx context.Context, returnTo string, now time.Time) (string, *Login, error) {
	if err := rp.discover(ctx); err != nil {
		return "", nil, err
	}
	l := &Login{State: random(), Nonce: random(), Verifier: oauth2.GenerateVerifier(), ReturnTo: returnTo,
		Expires: now.Add(LoginTTL)}
	opts := append([]oauth2.AuthCodeOption{oidc.Nonce(l.Nonce), oauth2.S256ChallengeOption(l.Verifier)}, rp.mfa...)
	return rp.oauth.AuthCodeURL(l.State, opts...), l, nil
}

// Finish completes the sign-in of l with the callback's query: it checks
// state, exchanges the code with the PKCE verifier, and verifies the ID
// token (signature, issuer, audience, expiry, nonce) and, when required,
// a second factor. A sign-in refused after the exchange has its refresh
// token revoked at the provider. Refusals are *SignInError.
func (rp *RP) Finish(ctx context.Context, l *Login, q url.Values, now time.Time) (*Identity, error) {
	if e := q.Get("error"); e != "" {
		return nil, providerError(e, q.Get("error_description"))
	}
	if l == nil || now.After(l.Expires) {
		return nil, refuse("This sign-in took too long or was started in another browser; start again.", nil)
	}
	if q.Get("state") == "" || q.Get("state") != l.State {
		return nil, refuse("The sign-in answer does not belong to this browser (state mismatch); start again.", nil)
	}
	if err := rp.discover(ctx); err != nil {
		return nil, err
	}
	tok, idt, err := Redeem(rp.ctx(ctx), &rp.oauth, rp.verifier, q.Get("code"), l.Verifier, l.Nonce)
	if err != nil {
		return nil, err
	}
	id, err := rp.identity(idt, tok)
	if err == nil && id.Email == "" {
		err = rp.userInfo(ctx, tok, id)
	}
	if err != nil {
		if rerr := rp.Revoke(ctx, tok.RefreshToken); rerr != nil {
			err = errors.Join(err, fmt.Errorf("revoking the refused sign-in's refresh token: %w", rerr))
		}
		return nil, err
	}
	return id, nil
}

// Redeem exchanges code with the PKCE verifier and verifies the ID token
// it brings (signature, issuer, audience, expiry) and its nonce: the end
// of an authorization code flow, for the dashboard's sign-in and for the
// embedded provider's federation alike. ctx carries the HTTP client
// (oidc.ClientContext). Its errors are *SignInError.
func Redeem(ctx context.Context, conf *oauth2.Config, v *oidc.IDTokenVerifier, code, verifier, nonce string) (*oauth2.Token, *oidc.IDToken, error) {
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, nil, refuse("The identity provider did not complete this sign-in (its code could not be exchanged); start again.", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := v.Verify(ctx, raw)
	if err != nil {
		return nil, nil, refuse("The identity provider's answer could not be verified; start again.", err)
	}
	if idt.Nonce != nonce {
		return nil, nil, refuse("The identity provider's answer was not for this sign-in (nonce mismatch); start again.", nil)
	}
	return tok, idt, nil
}

// userInfo fills email and name from the userinfo endpoint, for
// providers that leave them out of the ID token.
func (rp *RP) userInfo(ctx context.Context, tok *oauth2.Token, id *Identity) error {
	info, err := rp.provider.UserInfo(rp.ctx(ctx), oauth2.StaticTokenSource(tok))
	if err != nil {
		return fmt.Errorf("auth: userinfo: %w", err)
	}
	if info.Subject != id.Subject {
		return refuse("The identity provider's answers disagree about who you are; start again.",
			errors.New("the userinfo subject differs from the ID token's"))
	}
	var c struct {
		Name string `json:"name"`
	}
	_ = info.Claims(&c)
	id.Email = info.Email
	if id.Name == "" {
		id.Name = c.Name
	}
	return nil
}

// identity reads the claims of a verified ID token.
func (rp *RP) identity(idt *oidc.IDToken, tok *oauth2.Token) (*Identity, error) {
	var c struct {
		Email string   `json:"email"`
		Name  string   `json:"name"`
		AMR   []string `json:"amr"`
	}
	if err := idt.Claims(&c); err != nil {
		return nil, refuse("The identity provider's answer could not be read; start again.", err)
	}
	if rp.cfg.RequireMFA && !HasSecondFactor(c.AMR) {
		return nil, refuse("Your organisation requires a second factor, and this sign-in used "+
			strings.Join(orNone(c.AMR), ", ")+" only; set up a one-time code at your identity provider and sign in again.", nil)
	}
	raw, _ := tok.Extra("id_token").(string)
	return &Identity{Issuer: idt.Issuer, Subject: idt.Subject, Email: c.Email, Name: c.Name, AMR: c.AMR,
		RefreshToken: tok.RefreshToken, IDToken: raw}, nil
}

// random returns 32 random bytes in base64url.
func random() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
