package http_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/alerts"
	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlite"
	"github.com/feedbackhq/feedback/server/storetest"
	"github.com/feedbackhq/feedback/server/workspace"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// newClock returns the tests' manual clock, standing at 10:00:05 UTC.
func newClock() *storetest.Clock {
	return storetest.NewClock(time.Date(2026, 11, 21, 10, 0, 5, 0, time.UTC))
}

// storeKinds are the stores every HTTP test can run on.
var storeKinds = []string{"sqlite", "postgres"}

// openStore opens a fresh, migrated store of kind on clock.
func openStore(tb testing.TB, kind string, clock func() time.Time) server.Store {
	tb.Helper()
	ctx := context.Background()
	var store server.Store
	switch kind {
	case "sqlite":
		db, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "feedback.db"), sqlite.WithNow(clock))
		if err != nil {
			tb.Fatal(err)
		}
		if err := db.Migrate(ctx); err != nil {
			tb.Fatal(err)
		}
		store = db
	case "postgres":
		db, err := postgres.Open(ctx, pgtest.URL(tb), postgres.WithNow(clock))
		if err != nil {
			tb.Fatal(err)
		}
		store = db
	default:
		tb.Fatalf("unknown store %q", kind)
	}
	tb.Cleanup(func() { store.Close() })
	return store
}

// TestServer is the real router on a real listener over a real store.
type TestServer struct {
	URL   string
	Store server.Store
	Keys  *secret.Keyring
	Clock *storetest.Clock
	HTTP  *http.Client
}

// tenant is a workspace with an API token.
type tenant struct {
	ID, Token string
	WS        *server.Workspace
}

// MustOpenServer starts a server on a fresh store of kind. mods adjust
// the configuration, BaseURL set, before the server starts.
func MustOpenServer(tb testing.TB, kind string, mods ...func(*feedbackhttp.Config)) *TestServer {
	tb.Helper()
	clock := newClock()
	keys, err := secret.ParseKeyring(secret.NewKey())
	if err != nil {
		tb.Fatal(err)
	}
	cfg := feedbackhttp.Config{Store: openStore(tb, kind, clock.Now), Keyring: keys, RateLimit: 1000,
		Now: clock.Now, Logger: testLogger(tb), WebhookResolver: testHooks}
	hs := httptest.NewServer(nil)
	cfg.BaseURL = hs.URL
	for _, m := range mods {
		m(&cfg)
	}
	hs.Config.Handler = feedbackhttp.New(cfg).Handler()
	tb.Cleanup(hs.Close)
	worker, stop := alerts.Start(context.Background(), cfg.Store, cfg.Logger, nil)
	tb.Cleanup(stop) // before the store closes
	cfg.Store.OnEvent(func(ws string, _ int64) { worker.Wake(ws) })
	return &TestServer{URL: hs.URL, Store: cfg.Store, Keys: keys, Clock: clock, HTTP: validatingClient(tb)}
}

// NewTenant creates a workspace with a token.
func (ts *TestServer) NewTenant(tb testing.TB, name string) tenant {
	tb.Helper()
	ctx := context.Background()
	ws, err := workspace.Create(ctx, ts.Store, ts.Keys, name, strings.ToLower(strings.ReplaceAll(name, " ", "-")))
	if err != nil {
		tb.Fatal(err)
	}
	tok, _, err := workspace.CreateToken(ctx, ts.Store, ws.ID, "test")
	if err != nil {
		tb.Fatal(err)
	}
	return tenant{ID: ws.ID, Token: tok, WS: ws}
}

// newToken creates another token for a workspace.
func (ts *TestServer) newToken(tb testing.TB, ws string) (id, value string) {
	tb.Helper()
	value, tok, err := workspace.CreateToken(context.Background(), ts.Store, ws, "another")
	if err != nil {
		tb.Fatal(err)
	}
	return tok.ID, value
}

// req is one HTTP request of a test.
type req struct {
	method, path, token string
	body                any    // encoded as JSON unless it is a string
	contentType         string // defaults to application/json when there is a body
	header              http.Header
}

// result is a completed response with its body read.
type result struct {
	Status int
	Header http.Header
	Body   []byte
}

// do performs r against the server.
func (ts *TestServer) do(tb testing.TB, r req) *result {
	tb.Helper()
	var body io.Reader
	ct := r.contentType
	switch b := r.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			tb.Fatal(err)
		}
		body = bytes.NewReader(j)
		if ct == "" {
			ct = "application/json"
		}
	}
	hr, err := http.NewRequest(r.method, ts.URL+r.path, body)
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range r.header {
		hr.Header[k] = v
	}
	if ct != "" {
		hr.Header.Set("Content-Type", ct)
	}
	if r.token != "" {
		hr.Header.Set("Authorization", "Bearer "+r.token)
	}
	res, err := ts.HTTP.Do(hr)
	if err != nil {
		tb.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return &result{Status: res.StatusCode, Header: res.Header, Body: b}
}

// decode decodes the JSON body into v.
func (r *result) decode(tb testing.TB, v any) {
	tb.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		tb.Fatalf("decode %s: %v", r.Body, err)
	}
}

// problem decodes the body as a problem and checks its invariants.
func (r *result) problem(tb testing.TB) feedback.Problem {
	tb.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		tb.Errorf("Content-Type = %q; want application/problem+json (body %s)", ct, r.Body)
	}
	var p feedback.Problem
	r.decode(tb, &p)
	if p.Status != r.Status || p.Code == "" || p.RequestID == "" || p.RequestID != r.Header.Get("X-Request-Id") ||
		p.Type != feedback.ProblemTypePrefix+p.Code || p.Title == "" || p.Detail == "" || p.InvalidParams == nil {
		tb.Errorf("malformed problem: %s", r.Body)
	}
	return p
}

// expect fails unless the response has status and, for errors, code.
func (r *result) expect(tb testing.TB, status int, code string) *result {
	tb.Helper()
	if r.Status != status {
		tb.Fatalf("status = %d; want %d (body %s)", r.Status, status, r.Body)
	}
	if code != "" {
		if p := r.problem(tb); p.Code != code {
			tb.Fatalf("code = %q; want %q (body %s)", p.Code, code, r.Body)
		}
	}
	return r
}
