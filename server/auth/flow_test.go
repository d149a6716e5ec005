package auth_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/auth"
	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/internal/oidctest"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlite"
	"github.com/feedbackhq/feedback/server/storetest"
	"github.com/feedbackhq/feedback/server/workspace"
)

// Our registration with the test provider.
const (
	clientID     = "dashboard"
	clientSecret = "dashboard-secret"
)

// opener opens a store on a database; open twice for two instances.
type opener func(t *testing.T, clock func() time.Time) server.Store

// databases returns, per store kind, an opener of one fresh database.
func databases(t *testing.T) map[string]opener {
	path := filepath.Join(t.TempDir(), "feedback.db")
	var pgURL string
	var once sync.Once
	return map[string]opener{
		"sqlite": func(t *testing.T, clock func() time.Time) server.Store {
			db, err := sqlite.Open(context.Background(), path, sqlite.WithNow(clock))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			if err := db.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			return db
		},
		"postgres": func(t *testing.T, clock func() time.Time) server.Store {
			once.Do(func() { pgURL = pgtest.URL(t) })
			db, err := postgres.Open(context.Background(), pgURL, postgres.WithNow(clock))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
	}
}

// eachStore runs fn on both stores, in parallel.
func eachStore(t *testing.T, fn func(t *testing.T, open opener)) {
	for kind, open := range databases(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, open)
		})
	}
}

// rig is feedbackd over TLS on 127.0.0.1 with sign-in through a zitadel
// provider on http://localhost: two host names, as a
// real deployment has, so that the cross-site callback is exercised.
// (newEmbeddedRig signs in through the embedded provider instead.)
type rig struct {
	URL      string // the service, https://127.0.0.1:port
	Issuer   string // the provider, http://localhost:port
	Provider *oidctest.Provider
	Store    server.Store
	Keys     *secret.Keyring
	Clock    *storetest.Clock
	Tokens   *tokenLog // what the relying party and the provider say to each other
	Log      *syncBuffer
	tls      http.RoundTripper
	embedded *embedded // nil unless newEmbeddedRig
}

// setup is what a test may change before its rig starts.
type setup struct {
	Provider oidctest.Client
	Config   auth.Config
}

// newRig starts the provider and the service on a fresh database.
func newRig(t *testing.T, open opener, mods ...func(*setup)) *rig {
	r, hs := startRig(t, open)
	st := setup{Provider: oidctest.Client{ID: clientID, Secret: clientSecret, Redirect: hs.URL + "/auth/callback",
		PostLogout: hs.URL + "/auth/signed-out"}}
	for _, m := range mods {
		m(&st)
	}
	r.Provider = oidctest.New(t, st.Provider)
	r.Issuer = r.Provider.Issuer
	r.serve(hs, st.Config)
	return r
}

// startRig starts the service's TLS server, without a handler yet, on a
// fresh database.
func startRig(t *testing.T, open opener) (*rig, *httptest.Server) {
	clock := storetest.NewClock(time.Now())
	keys, err := secret.ParseKeyring(secret.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.StartTLS()
	t.Cleanup(hs.Close)
	r := &rig{URL: hs.URL, Store: open(t, clock.Now), Keys: keys, Clock: clock, Log: &syncBuffer{},
		tls: hs.Client().Transport}
	r.Tokens = &tokenLog{next: http.DefaultTransport}
	return r, hs
}

// serve gives hs the service's handler, signing in at r.Issuer with cfg
// completed.
func (r *rig) serve(hs *httptest.Server, cfg auth.Config) {
	cfg.Issuer, cfg.ClientID, cfg.ClientSecret = r.Issuer, clientID, clientSecret
	cfg.RedirectURL, cfg.PostLogoutURL = r.URL+"/auth/callback", r.URL+"/auth/signed-out"
	cfg.HTTPClient = &http.Client{Transport: r.Tokens}
	hs.Config.Handler = r.handler(r.Store, cfg)
}

// handler is one feedbackd instance on store.
func (r *rig) handler(store server.Store, cfg auth.Config) http.Handler {
	c := feedbackhttp.Config{Store: store, Keyring: r.Keys, RateLimit: 1000, Now: r.Clock.Now, OIDC: cfg, BaseURL: r.URL,
		Logger: slog.New(slog.NewTextHandler(r.Log, nil))}
	if r.embedded != nil {
		c.IdP = r.embedded.p.Handler()
	}
	return feedbackhttp.New(c).Handler()
}

// browser is a client with a cookie jar that records every Set-Cookie.
type browser struct {
	*http.Client
	mu  sync.Mutex
	set []*http.Cookie
}

func (r *rig) browser(t *testing.T) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &browser{}
	b.Client = &http.Client{Jar: jar, Transport: recorder{r.tls, b}}
	return b
}

type recorder struct {
	next http.RoundTripper
	b    *browser
}

func (rt recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := rt.next.RoundTrip(req)
	if err == nil {
		rt.b.mu.Lock()
		rt.b.set = append(rt.b.set, res.Cookies()...)
		rt.b.mu.Unlock()
	}
	return res, err
}

// lastSet returns the last Set-Cookie of name the browser received.
func (b *browser) lastSet(name string) *http.Cookie {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.set) - 1; i >= 0; i-- {
		if b.set[i].Name == name {
			return b.set[i]
		}
	}
	return nil
}

var hiddenID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// signIn goes through the whole flow as a person would: open the
// sign-in link, get the provider's login page, type the credentials, and
// come back. It returns the status and body of the page it lands on.
func (r *rig) signIn(t *testing.T, b *browser, returnTo string) (int, string) {
	t.Helper()
	res, err := b.Get(r.URL + "/auth/login?return_to=" + url.QueryEscape(returnTo))
	if err != nil {
		t.Fatal(err)
	}
	page := readBody(t, res)
	if r.embedded != nil {
		return r.embedded.logIn(t, b, res, page)
	}
	m := hiddenID.FindStringSubmatch(page)
	if m == nil || !strings.HasPrefix(res.Request.URL.String(), r.Issuer) {
		t.Fatalf("the sign-in link led to %s, not the provider's login page:\n%s", res.Request.URL, page)
	}
	host, _ := url.Parse(r.Issuer)
	res, err = b.PostForm(r.Issuer+"/login/username", url.Values{"id": {m[1]},
		"username": {"test-user@" + host.Hostname()}, "password": {oidctest.Password}})
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, readBody(t, res)
}

func readBody(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// api sends an API request with the browser's cookies.
func (r *rig) api(t *testing.T, b *browser, method, path string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, r.URL+path, nil)
	res, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

func (r *rig) workspace(t *testing.T, slug string) {
	if _, err := workspace.Create(context.Background(), r.Store, r.Keys, slug, slug); err != nil {
		t.Fatal(err)
	}
}
