// Package idptest runs the embedded OpenID provider (server/idp) for
// tests: one or more instances on a fresh SQLite or PostgreSQL database,
// on a test clock, behind a real HTTP server, with its OpenID and SAML
// federators; and a browser and a relying party (golang.org/x/oauth2,
// github.com/coreos/go-oidc/v3) that sign in through it as the dashboard
// does. The tests of server/idp, server/idp/oidcfed and
// server/idp/samlfed share it.
package idptest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/idp/oidcfed"
	"github.com/feedbackhq/feedback/server/idp/samlfed"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlite"
	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/feedbackhq/feedback/server/storetest"
)

// The dashboard's registration in every test.
const (
	ClientID     = "dashboard"
	ClientSecret = "dashboard-client-secret"
)

// Database is a test database that several providers (instances) can
// open, each with its own store and connection pool.
type Database struct {
	// Open opens a store on the database, closed when tb ends.
	Open func(tb testing.TB) Store
}

// Store is what a test opens: the provider's store, whose SQL the tests
// read too.
type Store interface {
	server.IdPStore
	SQL() sqlstore.DB
}

// EachStore runs fn on a fresh SQLite and a fresh PostgreSQL database, in
// parallel subtests.
func EachStore(t *testing.T, fn func(t *testing.T, db *Database)) {
	t.Helper()
	t.Run("SQLite", func(t *testing.T) {
		t.Parallel()
		fn(t, SQLiteDB(t))
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		pgtest.Check(t)
		t.Parallel()
		fn(t, PostgresDB(t))
	})
}

// SQLiteDB makes a migrated SQLite database.
func SQLiteDB(t *testing.T) *Database {
	path := filepath.Join(t.TempDir(), "feedback.db")
	d := &Database{Open: func(tb testing.TB) Store {
		tb.Helper()
		db, err := sqlite.Open(context.Background(), path)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { db.Close() })
		return db
	}}
	db, err := sqlite.Open(context.Background(), path)
	if err == nil {
		err = errors.Join(db.Migrate(context.Background()), db.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// PostgresDB makes a migrated PostgreSQL database.
func PostgresDB(t *testing.T) *Database {
	url := pgtest.URL(t)
	d := &Database{Open: func(tb testing.TB) Store {
		tb.Helper()
		db, err := postgres.Open(context.Background(), url, postgres.WithMaxConns(4))
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { db.Close() })
		return db
	}}
	db, err := postgres.Open(context.Background(), url)
	if err == nil {
		err = errors.Join(db.Migrate(context.Background()), db.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Env is a test server on 127.0.0.1 that serves one or more providers
// (instances on one database) under /idp/, and the dashboard's callback.
// The providers sign in through OpenID and SAML federations too.
type Env struct {
	T      *testing.T
	DB     *Database
	Clock  *storetest.Clock
	Keys   *secret.Keyring
	Srv    *httptest.Server
	Issuer string
	// Serving is the instance that serves the next request; -1: each in
	// turn.
	Serving atomic.Int32

	log       *errorLog
	mu        sync.Mutex
	instances []*idp.Provider
	turn      atomic.Int32
}

// NewEnv starts a server with n providers on db. The test fails if a
// provider logs an error.
func NewEnv(t *testing.T, db *Database, n int) *Env {
	t.Helper()
	keys, err := secret.ParseKeyring(secret.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	e := &Env{T: t, DB: db, Clock: storetest.NewClock(time.Now()), Keys: keys, log: &errorLog{}}
	t.Cleanup(func() {
		if s := e.log.String(); s != "" {
			t.Errorf("the providers logged errors:\n%s", s)
		}
	})
	mux := http.NewServeMux()
	mux.Handle("/idp/", http.HandlerFunc(e.route))
	mux.HandleFunc("/callback", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "callback") })
	mux.HandleFunc("/after-logout", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "logged out") })
	e.Srv = httptest.NewServer(mux)
	t.Cleanup(e.Srv.Close)
	e.Issuer = e.Srv.URL + "/idp"
	ps := make([]*idp.Provider, n)
	for i := range ps {
		ps[i] = e.NewProvider(t)
	}
	e.SetInstances(ps)
	return e
}

// NewProvider returns a provider of the env's issuer on its own pool.
func (e *Env) NewProvider(t *testing.T) *idp.Provider {
	t.Helper()
	p, err := e.Open(t)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Open is NewProvider that returns its error.
func (e *Env) Open(t *testing.T) (*idp.Provider, error) {
	return idp.New(context.Background(), idp.Config{
		Issuer: e.Issuer,
		Store:  e.DB.Open(t),
		Keys:   e.Keys,
		Clients: []idp.Client{{ID: ClientID, Secret: ClientSecret, RedirectURIs: []string{e.Srv.URL + "/callback"},
			PostLogoutRedirectURIs: []string{e.Srv.URL + "/after-logout"}}},
		Now:        e.Clock.Now,
		Logger:     slog.New(slog.NewTextHandler(e.log, &slog.HandlerOptions{Level: slog.LevelError})),
		Insecure:   true,
		Federators: []func(idp.Host) idp.Federator{oidcfed.New, samlfed.New},
	})
}

// route hands a request to the instance that serves now.
func (e *Env) route(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	ps := e.instances
	e.mu.Unlock()
	i := int(e.Serving.Load())
	if i < 0 {
		i = int(e.turn.Add(1)) % len(ps)
	}
	ps[i].Handler().ServeHTTP(w, r)
}

// P returns the first instance.
func (e *Env) P() *idp.Provider {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.instances[0]
}

// Account makes an account with a password.
func (e *Env) Account(email, password string) {
	e.T.Helper()
	ctx := context.Background()
	if _, err := e.P().CreateAccount(ctx, email); err != nil {
		e.T.Fatal(err)
	}
	if err := e.P().SetPassword(ctx, email, password); err != nil {
		e.T.Fatal(err)
	}
}

// errorLog keeps what the providers log at level ERROR: internal errors,
// which no test expects.
type errorLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *errorLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(b)
}

func (l *errorLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// SetInstances replaces the providers that serve.
func (e *Env) SetInstances(ps []*idp.Provider) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.instances = ps
}
