package inmem

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/storetest"
)

var t0 = time.Date(2026, 11, 21, 7, 47, 29, 507000000, time.UTC)

func TestWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		t          time.Time
		d          time.Duration
		start, end time.Time
	}{
		{"minute", t0, time.Minute, time.Date(2026, 11, 21, 7, 47, 0, 0, time.UTC), time.Date(2026, 11, 21, 7, 48, 0, 0, time.UTC)},
		{"on the boundary", time.Date(2026, 11, 21, 7, 48, 0, 0, time.UTC), time.Minute,
			time.Date(2026, 11, 21, 7, 48, 0, 0, time.UTC), time.Date(2026, 11, 21, 7, 49, 0, 0, time.UTC)},
		{"just before the boundary", time.Date(2026, 11, 21, 7, 47, 59, 999999000, time.UTC), time.Minute,
			time.Date(2026, 11, 21, 7, 47, 0, 0, time.UTC), time.Date(2026, 11, 21, 7, 48, 0, 0, time.UTC)},
		{"hour", t0, time.Hour, time.Date(2026, 11, 21, 7, 0, 0, 0, time.UTC), time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)},
		{"other zone", t0.In(time.FixedZone("x", 3600+1800)), time.Hour,
			time.Date(2026, 11, 21, 7, 0, 0, 0, time.UTC), time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)},
		{"before 1970", time.Date(1969, 12, 31, 23, 59, 30, 0, time.UTC), time.Minute,
			time.Date(1969, 12, 31, 23, 59, 0, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"zero window", t0, 0, t0, t0.Add(time.Microsecond)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, end := Window(tt.t, tt.d)
			if !start.Equal(tt.start) || !end.Equal(tt.end) {
				t.Errorf("Window(%v, %v) = %v, %v; want %v, %v", tt.t, tt.d, start, end, tt.start, tt.end)
			}
		})
	}
}

func TestLimiter(t *testing.T) {
	storetest.RunLimiter(t, func(_ testing.TB, now func() time.Time) server.Limiter { return NewLimiter(now) })
}

func TestLimiterSweeps(t *testing.T) {
	t.Parallel()
	clk := storetest.NewClock(t0)
	l := NewLimiter(clk.Now)
	for _, key := range []string{"a", "b", "c"} {
		l.Take(context.Background(), key, 1, time.Minute)
	}
	clk.Add(2 * sweepEvery)
	l.Take(context.Background(), "d", 1, time.Minute)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.windows) != 1 {
		t.Errorf("after a sweep %d windows are kept, want 1 (the current one)", len(l.windows))
	}
}
