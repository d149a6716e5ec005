package bench_test

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/bench"
)

// seed inserts rows hygiene submissions into e's workspace in SQL, one
// per second going back from now, fast enough for a million.
func seed(tb testing.TB, e *env, rows int) {
	tb.Helper()
	ctx := context.Background()
	start := time.Now()
	s := bench.SeedFor(e.kind)
	err := e.exec(ctx, s.Insert, e.ws.ID, e.locationID, e.posterID, rows)
	if err == nil {
		err = e.exec(ctx, s.Counters)
	}
	if err == nil && s.Analyze != "" {
		err = e.exec(ctx, s.Analyze)
	}
	if err != nil {
		tb.Fatalf("seed %d rows: %v", rows, err)
	}
	tb.Logf("seeded %d rows on %s in %s", rows, e.kind, time.Since(start).Round(time.Millisecond))
}
