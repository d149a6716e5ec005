package idp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/server/auth"
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
	f        *Federation
	provider *oidc.Provider
	oauth    oauth2.Config
}

// upstream discovers f's provider, or reuses what it discovered lately.
func (p *Provider) upstream(ctx context.Context, f *Federation) (*upstream, error) {
	now := p.now()
	p.ups.mu.Lock()
	d, ok := p.ups.m[f.Issuer]
	p.ups.mu.Unlock()
	if !ok || now.Sub(d.at) > discoveryTTL {
		op, err := oidc.NewProvider(p.clientContext(ctx), f.Issuer)
		if err != nil {
			return nil, fmt.Errorf("discovery of %s: %w", f.Issuer, err)
		}
		d = discovered{provider: op, at: now}
		p.ups.mu.Lock()
		if p.ups.m == nil {
			p.ups.m = map[string]discovered{}
		}
		p.ups.m[f.Issuer] = d
		p.ups.mu.Unlock()
	}
	return &upstream{f: f, provider: d.provider, oauth: oauth2.Config{ClientID: f.ClientID, ClientSecret: f.ClientSecret,
		Endpoint: d.provider.Endpoint(), RedirectURL: p.FederationRedirectURI(),
		Scopes: []string{oidc.ScopeOpenID, "email"}}}, nil
}

// clientContext carries the client that reaches upstream providers.
func (p *Provider) clientContext(ctx context.Context) context.Context {
	return oidc.ClientContext(ctx, p.cfg.HTTPClient)
}

// upstreamIdentity is what a federation's provider says of a person.
type upstreamIdentity struct {
	email string   // normalised
	amr   []string // as the ID token has it
}

// errUnverified refuses an identity whose address the federation does not
// vouch for.
var errUnverified = errors.New("idp: the upstream identity has no verified address of the federation's domains")

// upstreamClaims are the ID token's and userinfo's claims that matter.
type upstreamClaims struct {
	Email         string          `json:"email"`
	EmailVerified json.RawMessage `json:"email_verified"` // true, "true", false, or absent
	AMR           []string        `json:"amr"`
}

// redeem exchanges code for tokens and returns the identity of the
// verified ID token (signature, issuer, audience, expiry, nonce). It
// asks userinfo for the address when the ID token has none.
func (u *upstream) redeem(ctx context.Context, code, verifier, nonce string) (*upstreamIdentity, error) {
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

// identity checks c: an address in one of the federation's domains, not
// said to be unverified. An upstream speaks only for its own domains, so
// that it cannot sign in the accounts of others.
func (u *upstream) identity(c upstreamClaims) (*upstreamIdentity, error) {
	email := normalizeEmail(c.Email)
	_, domain, _ := strings.Cut(email, "@")
	verified := strings.TrimSpace(string(c.EmailVerified))
	switch {
	case !feedback.ValidEmail(email) || !slices.Contains(u.f.Domains, domain):
		return nil, errUnverified
	case verified != "" && verified != "true" && verified != `"true"`:
		return nil, errUnverified
	}
	return &upstreamIdentity{email: email, amr: c.AMR}, nil
}

// methods returns the amr of a federated sign-in through f: "fed", after
// the upstream's when f trusts them.
func (id *upstreamIdentity) methods(f *Federation) []string {
	if !f.TrustUpstreamMFA {
		return []string{"fed"}
	}
	amr := slices.DeleteFunc(slices.Clone(id.amr), func(m string) bool { return m == "fed" || m == "" })
	return append(amr, "fed")
}

// passesMFA reports whether a federated sign-in through f counts as two
// factors: f trusts its provider's amr, which names a second factor.
func (id *upstreamIdentity) passesMFA(f *Federation) bool {
	return f.TrustUpstreamMFA && auth.HasSecondFactor(id.amr)
}
