package http_test

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestRateLimit(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			const limit = 30
			ts := MustOpenServer(t, kind, func(c *feedbackhttp.Config) { c.RateLimit = limit })
			a, b := ts.NewTenant(t, "Limited"), ts.NewTenant(t, "Other")
			reset := ts.Clock.Now().Truncate(time.Minute).Add(time.Minute).Unix()
			for i := 1; i <= limit; i++ {
				r := ts.do(t, req{method: "GET", path: "/api/v1/review", token: a.Token}).expect(t, 200, "")
				checkLimitHeaders(t, r, limit, limit-i, reset)
			}
			r := ts.do(t, req{method: "GET", path: "/api/review", token: a.Token}).expect(t, 429, feedback.ERateLimited)
			checkLimitHeaders(t, r, limit, 0, reset)
			if got, want := r.Header.Get("Retry-After"), strconv.Itoa(int(reset-ts.Clock.Now().Unix())); got != want {
				t.Errorf("Retry-After = %q; want %q", got, want)
			}
			// Another workspace has its own budget; a second token of the
			// same workspace shares it.
			ts.do(t, req{method: "GET", path: "/api/v1/review", token: b.Token}).expect(t, 200, "")
			_, second := ts.newToken(t, a.ID)
			ts.do(t, req{method: "GET", path: "/api/v1/review", token: second}).expect(t, 429, feedback.ERateLimited)
			// The next window starts afresh.
			ts.Clock.Add(time.Minute)
			r = ts.do(t, req{method: "GET", path: "/api/v1/review", token: a.Token}).expect(t, 200, "")
			checkLimitHeaders(t, r, limit, limit-1, reset+60)
		})
	}
}

func checkLimitHeaders(t *testing.T, r *result, limit, remaining int, reset int64) {
	t.Helper()
	got := [3]string{r.Header.Get("X-RateLimit-Limit"), r.Header.Get("X-RateLimit-Remaining"), r.Header.Get("X-RateLimit-Reset")}
	want := [3]string{strconv.Itoa(limit), strconv.Itoa(remaining), strconv.FormatInt(reset, 10)}
	if got != want {
		t.Fatalf("rate-limit headers (limit, remaining, reset) = %v; want %v", got, want)
	}
}

// TestRateLimitConcurrent sends limit+50 requests at once: exactly limit succeed.
func TestRateLimitConcurrent(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			const limit = 100
			ts := MustOpenServer(t, kind, func(c *feedbackhttp.Config) { c.RateLimit = limit })
			a := ts.NewTenant(t, "Burst")
			var ok, limited atomic.Int32
			var wg sync.WaitGroup
			for range limit + 50 {
				wg.Go(func() {
					switch ts.do(t, req{method: "GET", path: "/api/v1/locations", token: a.Token}).Status {
					case 200:
						ok.Add(1)
					case 429:
						limited.Add(1)
					}
				})
			}
			wg.Wait()
			if ok.Load() != limit || limited.Load() != 50 {
				t.Errorf("%d ok and %d limited; want %d and 50", ok.Load(), limited.Load(), limit)
			}
		})
	}
}
