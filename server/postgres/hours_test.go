package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/server/postgres"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// clock is a settable clock that is safe for concurrent use.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }

// TestTotalsAcrossInstances checks the totals of two instances on one
// database: what one stores in an hour that is still open shows in the
// other's next total, and what one stores late into an hour that the
// other already holds as closed shows once the other reads its closed
// hours again, within refreshEvery.
func TestTotalsAcrossInstances(t *testing.T) {
	pgtest.Check(t)
	ctx := context.Background()
	url := pgtest.URL(t)
	t0 := time.Date(2026, 3, 27, 10, 40, 0, 0, time.UTC)
	ca, cb := &clock{now: t0}, &clock{now: t0}
	a, b := open(t, url, ca), open(t, url, cb)
	ws := newWorkspace(t, a, "Two")
	loc := &feedback.Location{Name: "Lobby"}
	must(t, a.CreateLocation(ctx, ws.ID, loc))
	add := func(s *postgres.DB, c *clock, at time.Time) {
		t.Helper()
		c.Set(at)
		_, err := s.AddHygiene(ctx, ws.ID, &feedback.HygieneSubmission{LocationID: loc.ID, Rating: 3, Language: "en",
			Source: feedback.SourceQR, CapturedAt: feedback.NewTime(at)}, []byte(at.String()))
		must(t, err)
	}
	total := func(want int, when string) {
		t.Helper()
		items, n, err := a.HygieneSubmissions(ctx, ws.ID, feedback.ListParams{Page: 2, PerPage: 1})
		must(t, err)
		if n != want || len(items) != min(1, want-1) {
			t.Errorf("%s: total %d with %d items on page 2, want %d", when, n, len(items), want)
		}
	}
	for i := range 3 {
		add(a, ca, t0.Add(-150*time.Minute+time.Duration(i)*time.Minute)) // 08:10, closed at 10:40
	}
	ca.Set(t0)
	total(3, "the first list")
	add(b, cb, t0.Add(time.Minute))
	total(4, "after the other instance stored in the open hour")
	add(b, cb, t0.Add(-80*time.Minute)) // 09:20: late, for a
	ca.Set(t0.Add(11 * time.Minute))
	total(5, "after the refresh")
}

func open(t *testing.T, url string, c *clock) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), url, postgres.WithNow(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
