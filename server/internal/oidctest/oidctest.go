// Package oidctest serves a real OpenID provider for tests: zitadel/oidc's
// op package over its example storage (users in memory) with a minimal
// login form, on http://localhost:PORT. Like a real identity provider it
// keeps a browser session: once signed in, a browser is signed in again
// without the form until the session ends through end_session. The tests
// of the relying party, the embedded provider's federation and the browser
// end to end sign in through it.
package oidctest

import (
	"crypto/sha256"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"

	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// The example storage's user: it logs in as User (test-user@ and the
// issuer's host name) with Password, and its verified address is Email.
const (
	User     = "test-user@localhost"
	Password = "verysecure"
	Email    = "test-user@zitadel.ch"
)

// Client is the registration of the party under test, and what the
// provider advertises to it.
type Client struct {
	ID, Secret string
	Redirect   string
	// PostLogout, when set, is the registered post_logout_redirect_uri.
	PostLogout string
	// AMR, when set, replaces the example's ["pwd"] in ID tokens.
	AMR []string
	// ACRValues, when set, are advertised as acr_values_supported, and
	// ClaimsParameter advertises claims_parameter_supported. The provider
	// records such requests (Authorizations) but does not act on them.
	ACRValues       []string
	ClaimsParameter bool
	// NoEndSession leaves end_session_endpoint out of the discovery
	// document, as providers without RP-initiated logout do.
	NoEndSession bool
}

// Provider is a running test provider.
type Provider struct {
	Issuer string

	st     *storage.Storage
	users  storage.UserStore
	c      Client
	cookie string // the name of the browser session's cookie

	mu       sync.Mutex
	sessions map[string]browserSession // by cookie value
	requests []url.Values              // the authorization requests' parameters
}

// browserSession is a signed-in browser: the credentials it gave, to
// sign it in again.
type browserSession struct{ userID, username, password string }

// Start serves a provider with c registered and returns its issuer; it
// closes when tb ends. (The example's own SetupServer writes a
// package-level default, which races when tests start providers in
// parallel.)
func Start(tb testing.TB, c Client) string { return New(tb, c).Issuer }

// New serves a provider with c registered, as Start does.
func New(tb testing.TB, c Client) *Provider {
	tb.Helper()
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		tb.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	p := &Provider{Issuer: "http://localhost:" + port, c: c, cookie: "oidctest_" + port, sessions: map[string]browserSession{}}
	p.users = storage.NewUserStore(p.Issuer)
	p.st = storage.NewStorageWithClients(p.users,
		map[string]*storage.Client{c.ID: storage.WebClient(c.ID, c.Secret, c.Redirect)})
	o, err := op.NewProvider(&op.Config{CryptoKey: sha256.Sum256([]byte(tb.Name())), CodeMethodS256: true,
		AuthMethodPost: true, GrantTypeRefreshToken: true, SupportedUILocales: []language.Tag{language.English}},
		&opStorage{Storage: p.st, p: p}, op.StaticIssuer(p.Issuer), op.WithAllowInsecure())
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: p.routes(o)}
	go func() { _ = srv.Serve(ln) }()
	tb.Cleanup(func() { srv.Close() })
	return p
}

// Authorizations returns the parameters of the authorization requests
// the provider received, in order.
func (p *Provider) Authorizations() []url.Values {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.requests)
}

// routes serves the login form, records authorization requests, adds
// what c advertises to the discovery document, and serves o.
func (p *Provider) routes(o *op.Provider) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/login/username", op.NewIssuerInterceptor(o.IssuerFromRequest).HandlerFunc(p.login(op.AuthCallbackURL(o))))
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		if r.ParseForm() == nil {
			p.mu.Lock()
			p.requests = append(p.requests, r.Form)
			p.mu.Unlock()
		}
		o.ServeHTTP(w, r)
	})
	mux.Handle("/.well-known/openid-configuration", p.discovery(o))
	mux.Handle("/", o)
	return mux
}
