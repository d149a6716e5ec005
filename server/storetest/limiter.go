package storetest

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// LimiterOpener returns a fresh limiter on the clock now, for tb.
type LimiterOpener func(tb testing.TB, now func() time.Time) server.Limiter

// RunLimiter runs the contract of [server.Limiter]: fixed windows aligned
// to the clock, exact counts (every call counts), Remaining and Reset,
// and exactly limit allowed calls among many concurrent ones. [Run] runs
// it on each store's Limiter.
func RunLimiter(t *testing.T, open LimiterOpener) {
	t.Run("Window", func(t *testing.T) {
		t.Parallel()
		clock := NewClock(T0)
		l := open(t, clock.Now)
		reset := T0.UTC().Truncate(time.Minute).Add(time.Minute)
		take := func(key string) server.Quota {
			t.Helper()
			q, err := l.Take(t.Context(), key, 3, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			return q
		}
		var got []server.Quota
		for range 5 {
			got = append(got, take("ws:a"))
		}
		want := []server.Quota{
			{Allowed: true, Limit: 3, Remaining: 2, Reset: reset},
			{Allowed: true, Limit: 3, Remaining: 1, Reset: reset},
			{Allowed: true, Limit: 3, Remaining: 0, Reset: reset},
			{Allowed: false, Limit: 3, Remaining: 0, Reset: reset},
			{Allowed: false, Limit: 3, Remaining: 0, Reset: reset},
		}
		wantEqual(t, "quotas of one window", want, got)
		wantEqual(t, "another key", server.Quota{Allowed: true, Limit: 3, Remaining: 2, Reset: reset}, take("ws:b"))
		clock.Set(reset.Add(-time.Microsecond))
		wantEqual(t, "the last microsecond of the window", want[4], take("ws:a"))
		clock.Set(reset)
		wantEqual(t, "the next window", server.Quota{Allowed: true, Limit: 3, Remaining: 2, Reset: reset.Add(time.Minute)}, take("ws:a"))
	})
	t.Run("Concurrent", func(t *testing.T) {
		t.Parallel()
		l := open(t, NewClock(T0).Now)
		const limit = 30
		var allowed atomic.Int32
		var wg sync.WaitGroup
		for range limit + 50 {
			wg.Go(func() {
				q, err := l.Take(t.Context(), "ws:busy", limit, time.Minute)
				if err != nil {
					t.Error(err)
				}
				if q.Allowed {
					allowed.Add(1)
				}
			})
		}
		wg.Wait()
		if got := allowed.Load(); got != limit {
			t.Errorf("%d of %d concurrent requests allowed, want exactly %d", got, limit+50, limit)
		}
	})
}

func testLimiter(t *testing.T, h harness) {
	RunLimiter(t, func(tb testing.TB, now func() time.Time) server.Limiter { return h.open(tb, now).Limiter() })
}
