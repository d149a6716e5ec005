package idp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
)

// Lifetimes.
const (
	authRequestTTL  = 30 * time.Minute    // from the redirect to the login page to a finished sign-in
	codeTTL         = 5 * time.Minute     // an authorization code
	accessTokenTTL  = 15 * time.Minute    // an access token
	idTokenTTL      = 15 * time.Minute    // an ID token
	refreshTokenTTL = 30 * 24 * time.Hour // a refresh token, renewed at each rotation
	linkTTL         = 7 * 24 * time.Hour  // a set-password link
	enrolTTL        = 15 * time.Minute    // the TOTP enrolment that follows a set-password link
	keyRotateAfter  = 30 * 24 * time.Hour // a signing key signs this long
	keyPublishFor   = 7 * 24 * time.Hour  // and stays in the JWKS this long after its successor's start
)

// Config configures the provider.
type Config struct {
	// Issuer is the provider's URL, e.g. "http://localhost:8080/idp": the
	// provider is mounted under this path prefix.
	Issuer string
	// Store keeps what the provider stores: the service's store
	// (server.Store includes server.IdPStore).
	Store server.IdPStore
	// Keys seals secrets at rest: signing private keys, TOTP secrets, and
	// the bearer values of codes and access tokens.
	Keys *secret.Keyring
	// Clients are the relying parties: the dashboard.
	Clients []Client
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger logs internal errors; nil means slog.Default().
	Logger *slog.Logger
	// Insecure allows an http issuer (development, tests on loopback),
	// and http issuers of federations.
	Insecure bool
	// HTTPClient reaches the providers of federations (discovery, keys,
	// token, userinfo, metadata); nil means a client with a 10-second
	// timeout.
	HTTPClient *http.Client
	// Federators make the provider's federators, one per kind of
	// federation it signs in through (oidcfed.New, samlfed.New); without
	// them, it signs in only with passwords.
	Federators []func(Host) Federator
}

// Client is a registered relying party: a confidential client of the
// authorization code flow with PKCE (S256), whose redirect URIs match
// exactly. It authenticates with client_secret_basic or
// client_secret_post.
type Client struct {
	ID, Secret             string
	RedirectURIs           []string
	PostLogoutRedirectURIs []string
}

// Provider is the embedded OpenID provider. Its methods are safe for
// concurrent use, and several Providers (one per instance of the service)
// may share a database.
type Provider struct {
	cfg        Config
	prefix     string // the issuer's path without its trailing slash: "" or "/idp"
	log        *slog.Logger
	clients    map[string]*client
	signing    *keyStore
	handler    http.Handler
	lastPurge  atomic.Int64         // Unix microseconds of the clock at the last purge
	federators map[string]Federator // by kind
}

// New returns a provider for cfg. It makes the first signing key when
// the database has none.
func New(ctx context.Context, cfg Config) (*Provider, error) {
	u, err := checkConfig(&cfg)
	if err != nil {
		return nil, err
	}
	p := &Provider{cfg: cfg, prefix: strings.TrimSuffix(u.Path, "/"), log: cfg.Logger}
	p.clients = newClients(cfg.Clients, p.prefix)
	p.federators = map[string]Federator{}
	for _, newFederator := range cfg.Federators {
		fr := newFederator(host{p})
		p.federators[fr.Kind()] = fr
	}
	p.signing = &keyStore{p: p}
	if _, err := p.signing.current(ctx); err != nil {
		return nil, err
	}
	o, err := op.NewProvider(p.opConfig(), &storage{p}, op.StaticIssuer(cfg.Issuer), p.opOptions()...)
	if err != nil {
		return nil, fmt.Errorf("idp: %w", err)
	}
	p.handler = p.routes(o)
	return p, nil
}

// checkConfig fills cfg's defaults and returns the issuer's URL, or the
// first thing wrong with cfg.
func checkConfig(cfg *Config) (*url.URL, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	u, err := url.Parse(cfg.Issuer)
	switch {
	case err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("idp: the issuer %q is not an absolute URL without query", cfg.Issuer)
	case u.Scheme != "https" && !(cfg.Insecure && u.Scheme == "http"):
		return nil, fmt.Errorf("idp: the issuer %q must be https (or http with Insecure)", cfg.Issuer)
	case cfg.Store == nil || cfg.Keys == nil:
		return nil, errors.New("idp: Store and Keys are required")
	}
	for _, c := range cfg.Clients {
		if c.ID == "" || c.Secret == "" || len(c.RedirectURIs) == 0 {
			return nil, fmt.Errorf("idp: client %q needs an id, a secret and a redirect URI", c.ID)
		}
	}
	return u, nil
}

func (p *Provider) opConfig() *op.Config {
	return &op.Config{
		DefaultLogoutRedirectURI: p.prefix + signedOutPath,
		CodeMethodS256:           true,
		AuthMethodPost:           true,
		GrantTypeRefreshToken:    true,
		SupportedUILocales:       []language.Tag{language.English},
		SupportedScopes:          []string{"openid", "email", "profile", "offline_access"},
	}
}

func (p *Provider) opOptions() []op.Option {
	opts := []op.Option{op.WithCrypto(sealer{p.cfg.Keys})}
	if p.cfg.Insecure {
		opts = append(opts, op.WithAllowInsecure())
	}
	return opts
}

// Handler returns the provider's HTTP handler. It serves discovery,
// authorize, token, userinfo, keys, revoke, end_session and the login
// and set-password pages, at their paths under the issuer's: requests
// keep their full path (mount it as mux.Handle("/idp/", p.Handler()), or
// with chi's Mount). Login throttling counts per client address the
// request's RemoteAddr: behind a proxy, set it to the client's address
// before this handler.
func (p *Provider) Handler() http.Handler { return p.handler }

// Issuer returns the provider's issuer URL.
func (p *Provider) Issuer() string { return p.cfg.Issuer }

// now returns the clock's time as the database keeps it.
func (p *Provider) now() time.Time {
	return p.cfg.Now().UTC().Truncate(time.Microsecond)
}
