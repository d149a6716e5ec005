package oidcfed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// discoveryTTL is how long an upstream provider's discovery document (and
// its key set, which go-oidc refreshes on an unknown key id) is reused.
const discoveryTTL = time.Hour

// upstreams caches the discovered providers of federations, by issuer.
type upstreams struct {
	mu sync.Mutex
	m  map[string]discovered
}

type discovered struct {
	provider *oidc.Provider
	at       time.Time
}

// upstream is a federation's provider as this provider's client.
type upstream struct {
	f        *idp.Federation
	provider *oidc.Provider
	oauth    oauth2.Config
}

// upstream discovers f's provider, or reuses what it discovered lately.
func (fr *federator) upstream(ctx context.Context, f *idp.Federation) (*upstream, error) {
	now := fr.env.Now()
	fr.ups.mu.Lock()
	d, ok := fr.ups.m[f.Issuer]
	fr.ups.mu.Unlock()
	if !ok || now.Sub(d.at) > discoveryTTL {
		op, err := oidc.NewProvider(fr.clientContext(ctx), f.Issuer)
		if err != nil {
			return nil, fmt.Errorf("discovery of %s: %w", f.Issuer, err)
		}
		d = discovered{provider: op, at: now}
		fr.ups.mu.Lock()
		if fr.ups.m == nil {
			fr.ups.m = map[string]discovered{}
		}
		fr.ups.m[f.Issuer] = d
		fr.ups.mu.Unlock()
	}
	return &upstream{f: f, provider: d.provider, oauth: oauth2.Config{ClientID: f.ClientID, ClientSecret: f.ClientSecret,
		Endpoint: d.provider.Endpoint(), RedirectURL: fr.env.URL(CallbackPath),
		Scopes: []string{oidc.ScopeOpenID, "email"}}}, nil
}

// clientContext carries the client that reaches upstream providers.
func (fr *federator) clientContext(ctx context.Context) context.Context {
	return oidc.ClientContext(ctx, fr.env.HTTPClient)
}

// upstreamClaims are the ID token's and userinfo's claims that matter.
type upstreamClaims struct {
	Email         string          `json:"email"`
	EmailVerified json.RawMessage `json:"email_verified"` // true, "true", false, or absent
	AMR           []string        `json:"amr"`
}

// redeem exchanges code for tokens and returns the identity of the
// verified ID token (signature, issuer, audience, expiry, nonce). It
// asks userinfo for the address when the ID token has none.
func (u *upstream) redeem(ctx context.Context, code, verifier, nonce string) (*idp.Identity, error) {
	tok, idt, err := auth.Redeem(ctx, &u.oauth, u.provider.Verifier(&oidc.Config{ClientID: u.f.ClientID}), code, verifier, nonce)
	if err != nil {
		return nil, err
	}
	var c upstreamClaims
	if err := idt.Claims(&c); err != nil {
		return nil, fmt.Errorf("ID token: %w", err)
	}
	if c.Email == "" {
		if c, err = u.userinfo(ctx, tok, idt.Subject, c.AMR); err != nil {
			return nil, err
		}
	}
	return u.identity(c)
}

// userinfo returns the claims of userinfo, for subject, and amr.
func (u *upstream) userinfo(ctx context.Context, tok *oauth2.Token, subject string, amr []string) (upstreamClaims, error) {
	info, err := u.provider.UserInfo(ctx, oauth2.StaticTokenSource(tok))
	if err != nil {
		return upstreamClaims{}, fmt.Errorf("userinfo: %w", err)
	}
	var c upstreamClaims
	if err := info.Claims(&c); err != nil {
		return upstreamClaims{}, fmt.Errorf("userinfo: %w", err)
	}
	if info.Subject != subject {
		return upstreamClaims{}, errors.New("userinfo: another subject than the ID token's")
	}
	c.AMR = amr
	return c, nil
}

// identity checks c: an address of the federation's domains
// (idp.Federation.Serves, which the provider checks again), not said to
// be unverified.
func (u *upstream) identity(c upstreamClaims) (*idp.Identity, error) {
	email, ok := u.f.Serves(c.Email)
	verified := strings.TrimSpace(string(c.EmailVerified))
	switch {
	case !ok:
		return nil, idp.ErrUnverified
	case verified != "" && verified != "true" && verified != `"true"`:
		return nil, idp.ErrUnverified
	}
	return &idp.Identity{Email: email, AMR: c.AMR}, nil
}

// Discover reads the discovery document of the OpenID provider issuer
// with client (the API gives one that refuses private addresses), so
// that a federation is added only when its provider answers as one.
// Returns EValidation, saying what went wrong, if it does not.
func Discover(ctx context.Context, client *http.Client, issuer string) error {
	if _, err := oidc.NewProvider(oidc.ClientContext(ctx, client), issuer); err != nil {
		return feedback.Errorf(feedback.EValidation, "The issuer's discovery document could not be read: %v", err)
	}
	return nil
}
