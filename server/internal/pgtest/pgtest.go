// Package pgtest gives tests a fresh, migrated PostgreSQL database each.
//
// The first call in a process connects to the server named by
// FEEDBACK_TEST_DATABASE_URL (default [DefaultURL]) and makes sure a
// template database holding the current migrations exists; every [URL]
// then creates a database from that template (a file copy, much faster
// than migrating) and drops it when the test ends. Test binaries of
// several packages may run at once: they build the template in turn,
// under an advisory lock, and name it after a hash of the migrations.
//
// Each process that uses the template holds a shared advisory lock on it
// until [Release] (call it from TestMain: [Main]), and the last one drops
// it, so that a test run leaves no database behind.
//
// When the server cannot be reached, tests are skipped with one line,
// unless CI=true or FEEDBACK_REQUIRE_POSTGRES=1, which make it a failure.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultURL is the server tests use when FEEDBACK_TEST_DATABASE_URL is
// not set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// server is what the first call finds out, shared by every test of the
// process.
type server struct {
	base        *url.URL
	admin       *pgxpool.Pool // on the base database: CREATE and DROP DATABASE
	template    string
	use         *pgxpool.Conn // holds this process's use of the template
	unreachable error         // the server did not answer
	err         error         // it answered, but the template could not be made
}

var (
	once    sync.Once
	srv     server
	skipped atomic.Bool // whether the long skip line has been printed
)

// URL returns the URL of a new database holding the current schema, which
// is dropped (with any connection still open to it) when tb ends. It skips
// or fails tb as [Check] does.
func URL(tb testing.TB) string {
	tb.Helper()
	Check(tb)
	ctx := context.Background()
	name := testDBPrefix + fmt.Sprintf("%d_%s", time.Now().Unix(), randomHex(6))
	if _, err := srv.admin.Exec(ctx, `CREATE DATABASE `+name+` TEMPLATE `+srv.template); err != nil {
		tb.Fatalf("pgtest: create database %s: %v", name, err)
	}
	tb.Cleanup(func() {
		if _, err := srv.admin.Exec(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			tb.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	u := *srv.base
	u.Path = "/" + name
	return u.String()
}

// Check skips tb when PostgreSQL is unreachable (printing the reason once
// per process), fails it instead when CI=true or
// FEEDBACK_REQUIRE_POSTGRES=1, and fails it when the template database
// cannot be made. Call it first in a test whose subtests all need
// PostgreSQL, so that the skip is one line.
func Check(tb testing.TB) {
	tb.Helper()
	once.Do(setup)
	switch {
	case srv.unreachable != nil && required():
		tb.Fatalf("pgtest: PostgreSQL is required (CI=true or FEEDBACK_REQUIRE_POSTGRES=1) but not reachable at %s: %v",
			srv.base.Redacted(), srv.unreachable)
	case srv.unreachable != nil && skipped.CompareAndSwap(false, true):
		tb.Skipf("pgtest: PostgreSQL not reachable at %s; skipping the PostgreSQL suite (set FEEDBACK_REQUIRE_POSTGRES=1 to require it)",
			srv.base.Redacted())
	case srv.unreachable != nil:
		tb.SkipNow()
	case srv.err != nil:
		tb.Fatalf("pgtest: %v", srv.err)
	}
}

// required reports whether the environment makes PostgreSQL mandatory.
func required() bool {
	return os.Getenv("CI") == "true" || os.Getenv("FEEDBACK_REQUIRE_POSTGRES") == "1"
}

// setup connects to the server and makes the template; it runs once.
func setup() {
	raw := os.Getenv("FEEDBACK_TEST_DATABASE_URL")
	if raw == "" {
		raw = DefaultURL
	}
	u, err := url.Parse(raw)
	if err != nil {
		srv.base, srv.err = &url.URL{}, fmt.Errorf("FEEDBACK_TEST_DATABASE_URL: %w", err)
		return
	}
	srv.base = u
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if srv.admin, srv.unreachable = connect(ctx, raw); srv.unreachable != nil {
		return
	}
	srv.template, srv.use, srv.err = makeTemplate(ctx, srv.admin, u)
}

// Release ends this process's use of the template database, and drops
// it when no other test process uses it, so that a test run leaves no
// database behind. Call it after the tests of a package ([Main] does);
// URL must not be called afterwards.
func Release() {
	if srv.use == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := release(ctx, srv.admin, srv.use, srv.template); err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: the template database %s stays: %v\n", srv.template, err)
	}
	srv.use = nil
}

// Main runs the tests of m, then [Release], and exits: the TestMain of a
// package whose tests use PostgreSQL.
func Main(m *testing.M) {
	code := m.Run()
	Release()
	os.Exit(code)
}

// connect opens a small pool on the base database and checks that it
// answers within a few seconds.
func connect(ctx context.Context, raw string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(raw)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = 4
	cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := p.Ping(pingCtx); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
