// Package storetest is the contract suite of [server.Store]: one set of
// tests that every store passes, run by the PostgreSQL and SQLite
// packages with
//
//	storetest.Run(t, func(tb testing.TB, now func() time.Time) server.Store {
//		... open a fresh, empty, migrated store on the clock now;
//		... close it in tb.Cleanup
//	})
//
// Every leaf test opens its own store and runs in parallel. Tests that
// need to move time pass a [Clock]'s Now; the others leave it at [T0].
package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// Opener opens a fresh, empty, migrated store whose clock is now, and
// closes it when tb ends.
type Opener func(tb testing.TB, now func() time.Time) server.Store

// Run runs the contract suite against the stores open returns.
func Run(t *testing.T, open Opener) {
	groups := []struct {
		name string
		run  func(t *testing.T, h harness)
	}{
		{"Ping", testPing},
		{"Workspace", testWorkspace},
		{"Token", testToken},
		{"Location", testLocation},
		{"Poster", testPoster},
		{"Review", testReview},
		{"Survey", testSurvey},
		{"AddHygiene", testAddHygiene},
		{"AddReviewResponse", testAddReviewResponse},
		{"AddSurveyResponse", testAddSurveyResponse},
		{"List", testList},
		{"Totals", testTotals},
		{"Webhook", testWebhook},
		{"Delivery", testDelivery},
		{"Auth", testAuth},
		{"IdP", testIdP},
		{"Event", testEvent},
		{"Kiosk", testKiosk},
		{"Summary", testSummary},
		{"Stats", testStats},
		{"Presence", testPresence},
		{"Alert", testAlert},
		{"Isolation", testIsolation},
		{"Limiter", testLimiter},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			g.run(t, harness{open})
		})
	}
}

// harness opens a store per test.
type harness struct{ open Opener }

// run runs fn as a parallel subtest with its own store.
func (h harness) run(t *testing.T, name string, fn func(t *testing.T, f *fixture)) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		fn(t, h.fixture(t))
	})
}

// fixture opens a store on a new [Clock] at [T0].
func (h harness) fixture(t *testing.T) *fixture {
	t.Helper()
	clock := NewClock(T0)
	return &fixture{t: t, s: h.open(t, clock.Now), clock: clock}
}

func testPing(t *testing.T, h harness) {
	f := h.fixture(t)
	if err := f.s.Ping(f.ctx()); err != nil {
		t.Errorf("Ping: %v", err)
	}
}
