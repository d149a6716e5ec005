package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
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
	// RequireMFA refuses a sign-in whose ID token names no second
	// factor in amr.
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
	revoke   string // the revocation endpoint, "" when the provider has none
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
	// session keeps it (sealed) to revoke it at sign-out.
	RefreshToken string
}

// ErrSignIn is wrapped by every refusal of a callback, whose message is
// meant for the person signing in.
var ErrSignIn = errors.New("sign-in refused")

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
	var meta struct {
		Revocation string `json:"revocation_endpoint"`
	}
	_ = p.Claims(&meta)
	rp.provider, rp.revoke = p, meta.Revocation
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
	u := rp.oauth.AuthCodeURL(l.State, oidc.Nonce(l.Nonce), oauth2.S256ChallengeOption(l.Verifier))
	return u, l, nil
}

// Finish completes the sign-in of l with the callback's query: it checks
// state, exchanges the code with the PKCE verifier, and verifies the ID
// token (signature, issuer, audience, expiry, nonce) and, when required,
// a second factor.
func (rp *RP) Finish(ctx context.Context, l *Login, q url.Values, now time.Time) (*Identity, error) {
	if e := q.Get("error"); e != "" {
		return nil, fmt.Errorf("%w: the identity provider answered %s %s", ErrSignIn, e, q.Get("error_description"))
	}
	if l == nil || now.After(l.Expires) {
		return nil, fmt.Errorf("%w: this sign-in took too long or was started in another browser; start again", ErrSignIn)
	}
	if q.Get("state") == "" || q.Get("state") != l.State {
		return nil, fmt.Errorf("%w: the sign-in answer does not belong to this browser (state mismatch)", ErrSignIn)
	}
	if err := rp.discover(ctx); err != nil {
		return nil, err
	}
	tok, idt, err := Redeem(rp.ctx(ctx), &rp.oauth, rp.verifier, q.Get("code"), l.Verifier, l.Nonce)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSignIn, err)
	}
	id, err := rp.identity(idt, tok.RefreshToken)
	if err == nil && id.Email == "" {
		err = rp.userInfo(ctx, tok, id)
	}
	return id, err
}

// Redeem exchanges code with the PKCE verifier and verifies the ID token
// it brings (signature, issuer, audience, expiry) and its nonce: the end
// of an authorization code flow, for the dashboard's sign-in and for the
// embedded provider's federation alike. ctx carries the HTTP client
// (oidc.ClientContext).
func Redeem(ctx context.Context, conf *oauth2.Config, v *oidc.IDTokenVerifier, code, verifier, nonce string) (*oauth2.Token, *oidc.IDToken, error) {
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, nil, fmt.Errorf("the code could not be exchanged: %v", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := v.Verify(ctx, raw)
	if err != nil {
		return nil, nil, fmt.Errorf("the ID token is not valid: %v", err)
	}
	if idt.Nonce != nonce {
		return nil, nil, errors.New("the ID token was not issued for this sign-in (nonce mismatch)")
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
		return fmt.Errorf("%w: the userinfo subject differs from the ID token's", ErrSignIn)
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
func (rp *RP) identity(idt *oidc.IDToken, refresh string) (*Identity, error) {
	var c struct {
		Email string   `json:"email"`
		Name  string   `json:"name"`
		AMR   []string `json:"amr"`
	}
	if err := idt.Claims(&c); err != nil {
		return nil, fmt.Errorf("%w: the ID token's claims: %v", ErrSignIn, err)
	}
	if rp.cfg.RequireMFA && !HasSecondFactor(c.AMR) {
		return nil, fmt.Errorf("%w: your organisation requires a second factor, and this sign-in used %s only; "+
			"set up a one-time code at your identity provider and sign in again", ErrSignIn, strings.Join(orNone(c.AMR), ", "))
	}
	return &Identity{Issuer: idt.Issuer, Subject: idt.Subject, Email: c.Email, Name: c.Name, AMR: c.AMR,
		RefreshToken: refresh}, nil
}

// secondFactors are the RFC 8176 methods that prove more than a
// password.
var secondFactors = []string{"mfa", "otp", "hwk", "swk", "sms", "tel", "fpt", "face", "iris", "retina", "vbm", "sc"}

// HasSecondFactor reports whether amr names a second factor.
func HasSecondFactor(amr []string) bool {
	return slices.ContainsFunc(amr, func(m string) bool { return slices.Contains(secondFactors, m) })
}

func orNone(amr []string) []string {
	if len(amr) == 0 {
		return []string{"no reported method"}
	}
	return amr
}

// Revoke revokes a provider refresh token (RFC 7009) when the provider
// has a revocation endpoint; it does nothing otherwise.
func (rp *RP) Revoke(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	if err := rp.discover(ctx); err != nil || rp.revoke == "" {
		return err
	}
	form := url.Values{"token": {token}, "token_type_hint": {"refresh_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rp.revoke, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(rp.cfg.ClientID), url.QueryEscape(rp.cfg.ClientSecret))
	c := rp.cfg.HTTPClient
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("auth: revocation answered %d", res.StatusCode)
	}
	return nil
}

// random returns 32 random bytes in base64url.
func random() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
