package postgres_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
)

// notice is one notification a relay heard.
type notice struct {
	ws  string
	seq int64
}

// TestRelay: what one instance's relay notifies, another's hears; a
// listener whose connection is killed reconnects and asks its hub to
// catch up.
func TestRelay(t *testing.T) {
	url := pgtest.URL(t)
	a, b := openPlain(t, url), openPlain(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	heard, caughtUp := make(chan notice, 16), make(chan struct{}, 4)
	rb := b.NewRelay(slog.New(slog.DiscardHandler))
	go rb.Run(ctx, func(ws string, seq int64) { heard <- notice{ws, seq} }, func() { caughtUp <- struct{}{} })
	ra := a.NewRelay(slog.New(slog.DiscardHandler))
	go ra.Run(ctx, func(string, int64) {}, func() {})
	wait := func(what string, c <-chan struct{}) {
		t.Helper()
		select {
		case <-c:
		case <-time.After(10 * time.Second):
			t.Fatalf("gave up waiting for %s", what)
		}
	}
	wait("the listener", caughtUp)
	ra.Notify("ws-1", 41)
	ra.Notify("ws-1", 42)
	select {
	case n := <-heard:
		if n.ws != "ws-1" || (n.seq != 41 && n.seq != 42) {
			t.Errorf("heard %+v", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other instance heard nothing")
	}

	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var killed int
	err = conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN feedback_events'`).Scan(&killed)
	if err != nil || killed == 0 {
		t.Fatalf("terminating the listeners: %d, %v", killed, err)
	}
	wait("the listener's reconnection", caughtUp)
}

// openPlain opens the database at url on the wall clock.
func openPlain(t *testing.T, url string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
