package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/sqlite"
	"github.com/feedbackhq/feedback/server/storetest"
)

// MustOpenDB opens a migrated store in a new file of tb's temporary
// directory, closed when tb ends.
func MustOpenDB(tb testing.TB, opts ...sqlite.Option) *sqlite.DB {
	tb.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "data", "feedback.db"), opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	return db
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(tb testing.TB, now func() time.Time) server.Store {
		return MustOpenDB(tb, sqlite.WithNow(now))
	})
}

func TestInstances(t *testing.T) {
	storetest.RunInstances(t, func(tb testing.TB, now func() time.Time, n int) []server.Store {
		path := filepath.Join(tb.TempDir(), "feedback.db")
		stores := make([]server.Store, n)
		for i := range stores {
			db, err := sqlite.Open(context.Background(), path, sqlite.WithNow(now))
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { db.Close() })
			if err := db.Migrate(context.Background()); err != nil {
				tb.Fatal(err)
			}
			stores[i] = db
		}
		return stores
	})
}

func TestBackfill(t *testing.T) {
	storetest.RunBackfill(t, func(tb testing.TB, now func() time.Time) server.Store {
		return MustOpenDB(tb, sqlite.WithNow(now))
	}, func(ctx context.Context, s server.Store) error {
		return s.(*sqlite.DB).Remigrate(ctx)
	})
}

func TestStatsBackfill(t *testing.T) {
	storetest.RunStatsBackfill(t, func(tb testing.TB, now func() time.Time) server.Store {
		return MustOpenDB(tb, sqlite.WithNow(now))
	}, func(ctx context.Context, s server.Store) error {
		return s.(*sqlite.DB).Remigrate(ctx)
	})
}

func TestOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "feedback.db")
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatalf("a second Migrate: %v", err)
	}
	if err := db.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("Open did not create the file and its directories: %v", err)
	}
}
