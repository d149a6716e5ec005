package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/server/storetest"
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

func TestBackfill(t *testing.T) {
	pgtest.Check(t)
	storetest.RunBackfill(t, func(tb testing.TB, now func() time.Time) server.Store {
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
