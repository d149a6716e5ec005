package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/storetest"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// MustOpenDB opens a store on a fresh, migrated database, closed when tb
// ends.
func MustOpenDB(tb testing.TB, opts ...postgres.Option) *postgres.DB {
	tb.Helper()
	db, err := postgres.Open(context.Background(), pgtest.URL(tb), opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestStore(t *testing.T) {
	pgtest.Check(t)
	storetest.Run(t, func(tb testing.TB, now func() time.Time) server.Store {
		return MustOpenDB(tb, postgres.WithNow(now), postgres.WithMaxConns(4))
	})
}

func TestInstances(t *testing.T) {
	pgtest.Check(t)
	storetest.RunInstances(t, func(tb testing.TB, now func() time.Time, n int) []server.Store {
		url := pgtest.URL(tb)
		stores := make([]server.Store, n)
		for i := range stores {
			db, err := postgres.Open(context.Background(), url, postgres.WithNow(now), postgres.WithMaxConns(4))
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { db.Close() })
			stores[i] = db
		}
		return stores
	})
}

func TestBackfill(t *testing.T) {
	pgtest.Check(t)
	storetest.RunBackfill(t, func(tb testing.TB, now func() time.Time) server.Store {
		return MustOpenDB(tb, postgres.WithNow(now))
	}, func(ctx context.Context, s server.Store) error {
		return s.(*postgres.DB).Remigrate(ctx)
	})
}

func TestStatsBackfill(t *testing.T) {
	pgtest.Check(t)
	storetest.RunStatsBackfill(t, func(tb testing.TB, now func() time.Time) server.Store {
		return MustOpenDB(tb, postgres.WithNow(now))
	}, func(ctx context.Context, s server.Store) error {
		return s.(*postgres.DB).Remigrate(ctx)
	})
}

func TestMigrateTwice(t *testing.T) {
	db := MustOpenDB(t)
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatalf("Migrate on a migrated database: %v", err)
	}
}

// TestRefusesRestoredEvents checks that a database whose events hold
// positions above what its transaction ids give new events (a logical
// restore into a new cluster) is refused at start, with the fix named.
func TestRefusesRestoredEvents(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	must(t, db.Migrate(ctx))
	ws := newWorkspace(t, db, "Restored")
	_, err := db.Pool().Exec(ctx, `INSERT INTO events (workspace_id, seq, id, type, occurred_at, data)
		VALUES ($1, (pg_current_xact_id()::text::bigint + 1000000) * 1024, gen_random_uuid(), 'x', now(), '{}')`, ws.ID)
	must(t, err)
	err = db.Migrate(ctx)
	if err == nil || !strings.Contains(err.Error(), "pg_resetwal") {
		t.Errorf("Migrate on restored events: %v, want a refusal that names pg_resetwal", err)
	}
}

// newWorkspace stores a workspace named name in db, its slug the name in
// lower case.
func newWorkspace(t *testing.T, db *postgres.DB, name string) *server.Workspace {
	t.Helper()
	w := &server.Workspace{Workspace: feedback.Workspace{Name: name, Slug: strings.ToLower(name)}, PosterKey: []byte("sealed")}
	must(t, db.CreateWorkspace(context.Background(), w))
	return w
}
