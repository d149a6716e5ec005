package idp_test

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
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/server/sqlite"
	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/feedbackhq/feedback/server/storetest"
)

func TestMain(m *testing.M) {
	idp.UseCheapHashes()
	pgtest.Main(m)
}

// The dashboard's registration in every test.
const (
	clientID     = "dashboard"
	clientSecret = "dashboard-client-secret"
)

// database is a test database that several providers (instances) can
// open, each with its own store and connection pool.
type database struct {
	open func(tb testing.TB) store
}

// store is what a test opens: the provider's store, whose SQL the tests
// read too.
type store interface {
	server.IdPStore
	SQL() sqlstore.DB
}

// eachStore runs fn on a fresh SQLite and a fresh PostgreSQL database, in
// parallel subtests.
func eachStore(t *testing.T, fn func(t *testing.T, db *database)) {
	t.Helper()
	t.Run("SQLite", func(t *testing.T) {
		t.Parallel()
		fn(t, sqliteDB(t))
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		pgtest.Check(t)
		t.Parallel()
		fn(t, postgresDB(t))
	})
}

// sqliteDB makes a migrated SQLite database.
func sqliteDB(t *testing.T) *database {
	path := filepath.Join(t.TempDir(), "feedback.db")
	d := &database{open: func(tb testing.TB) store {
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

// postgresDB makes a migrated PostgreSQL database.
func postgresDB(t *testing.T) *database {
	url := pgtest.URL(t)
	d := &database{open: func(tb testing.TB) store {
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

// env is a test server on 127.0.0.1 that serves one or more providers
// (instances on one database) under /idp/, and the dashboard's callback.
type env struct {
	t      *testing.T
	db     *database
	clock  *storetest.Clock
	keys   *secret.Keyring
	log    *errorLog
	srv    *httptest.Server
	issuer string

	mu        sync.Mutex
	instances []*idp.Provider
	serving   atomic.Int32 // the instance that serves the next request; -1: each in turn
	turn      atomic.Int32
}

// newEnv starts a server with n providers on db.
func newEnv(t *testing.T, db *database, n int) *env {
	t.Helper()
	keys, err := secret.ParseKeyring(secret.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: db, clock: storetest.NewClock(time.Now()), keys: keys, log: &errorLog{}}
	t.Cleanup(func() {
		if s := e.log.String(); s != "" {
			t.Errorf("the providers logged errors:\n%s", s)
		}
	})
	mux := http.NewServeMux()
	mux.Handle("/idp/", http.HandlerFunc(e.route))
	mux.HandleFunc("/callback", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "callback") })
	mux.HandleFunc("/after-logout", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "logged out") })
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	e.issuer = e.srv.URL + "/idp"
	ps := make([]*idp.Provider, n)
	for i := range ps {
		ps[i] = e.newProvider(t)
	}
	e.setInstances(ps)
	return e
}

// newProvider returns a provider of the env's issuer on its own pool.
func (e *env) newProvider(t *testing.T) *idp.Provider {
	t.Helper()
	p, err := e.open(t)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// open is newProvider that returns its error.
func (e *env) open(t *testing.T) (*idp.Provider, error) {
	return idp.New(context.Background(), idp.Config{
		Issuer: e.issuer,
		Store:  e.db.open(t),
		Keys:   e.keys,
		Clients: []idp.Client{{ID: clientID, Secret: clientSecret, RedirectURIs: []string{e.srv.URL + "/callback"},
			PostLogoutRedirectURIs: []string{e.srv.URL + "/after-logout"}}},
		Now:      e.clock.Now,
		Logger:   slog.New(slog.NewTextHandler(e.log, &slog.HandlerOptions{Level: slog.LevelError})),
		Insecure: true,
	})
}

// route hands a request to the instance that serves now.
func (e *env) route(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	ps := e.instances
	e.mu.Unlock()
	i := int(e.serving.Load())
	if i < 0 {
		i = int(e.turn.Add(1)) % len(ps)
	}
	ps[i].Handler().ServeHTTP(w, r)
}

// p returns the first instance.
func (e *env) p() *idp.Provider {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.instances[0]
}

// account makes an account with a password.
func (e *env) account(email, password string) {
	e.t.Helper()
	ctx := context.Background()
	if _, err := e.p().CreateAccount(ctx, email); err != nil {
		e.t.Fatal(err)
	}
	if err := e.p().SetPassword(ctx, email, password); err != nil {
		e.t.Fatal(err)
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

// setInstances replaces the providers that serve.
func (e *env) setInstances(ps []*idp.Provider) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.instances = ps
}
