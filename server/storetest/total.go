package storetest

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The totals tests store submissions across the days from h0, the first
// hour of a census.
var h0 = time.Date(2026, 3, 27, 0, 0, 0, 0, time.UTC)

const censusHours = 96

func testTotals(t *testing.T, h harness) {
	h.run(t, "Random", testTotalsRandom)
	h.run(t, "Repeats", testTotalsRepeats)
	h.run(t, "EveryPage", testTotalsEveryPage)
	h.run(t, "CursorWalk", testTotalsCursorWalk)
	h.run(t, "EveryPageConcurrent", testTotalsEveryPageConcurrent)
}

// testTotalsRandom stores a few hundred submissions across four days,
// some on the hour, some in the last microsecond of an hour, some in one
// microsecond, and compares the totals and pages of many spans with a
// count by brute force.
func testTotalsRandom(t *testing.T, f *fixture) {
	rnd := rand.New(rand.NewPCG(1, 2))
	c := newCensus(f)
	c.addRandom(rnd, 200)
	for _, at := range []time.Time{h0.Add(12 * time.Hour), h0.Add(40*time.Hour + 17*time.Minute + 3*time.Microsecond)} {
		for range 5 {
			c.add(c.pick(rnd), at)
		}
	}
	c.checkSpans(t, rnd, 60)
}

// testTotalsRepeats checks that a repeated or conflicting submission, or
// one sent many times at once, is counted once, even when the repeat comes
// in another hour.
func testTotalsRepeats(t *testing.T, f *fixture) {
	c := newCensus(f)
	for i, tg := range c.series() {
		f.clock.Set(h0.Add(time.Duration(i) * time.Hour))
		id := feedback.NewID()
		_, err := c.send(tg, id, []byte("one"))
		f.must(err)
		c.record(tg, id)
		f.clock.Add(90 * time.Minute)
		for range 2 {
			if created, err := c.send(tg, id, []byte("one")); err != nil || created {
				t.Errorf("%v: a repeat: created %v, err %v; want false, nil", tg, created, err)
			}
		}
		_, err = c.send(tg, id, []byte("two"))
		wantCode(t, err, feedback.EIdempotencyConflict)
		c.sendConcurrently(t, tg, 10)
	}
	c.checkSpans(t, rand.New(rand.NewPCG(3, 4)), 20)
}

// sendConcurrently sends one new submission to tg n times at once and
// fails t unless exactly one send stores it.
func (c *census) sendConcurrently(t *testing.T, tg target, n int) {
	t.Helper()
	id := feedback.NewID()
	var created atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			ok, err := c.send(tg, id, []byte("same"))
			if err != nil {
				t.Errorf("%v: a concurrent send: %v", tg, err)
			}
			if ok {
				created.Add(1)
			}
		})
	}
	wg.Wait()
	if got := created.Load(); got != 1 {
		t.Errorf("%v: %d of %d concurrent sends of one id stored it, want 1", tg, got, n)
	}
	c.record(tg, id)
}

// RunBackfill checks that migrating a database counts the submissions it
// already holds: it stores some in a store that open returns, undoes and
// redoes every migration after the first with remigrate (which drops the
// counters and backfills them), and compares the totals with a count by
// brute force, before and after more submissions.
func RunBackfill(t *testing.T, open Opener, remigrate func(ctx context.Context, s server.Store) error) {
	f := harness{open}.fixture(t)
	rnd := rand.New(rand.NewPCG(5, 6))
	c := newCensus(f)
	c.addRandom(rnd, 80)
	f.must(remigrate(f.ctx(), f.s))
	c.checkSpans(t, rnd, 30)
	c.addRandom(rnd, 20)
	c.checkSpans(t, rnd, 30)
}

// addRandom stores n submissions to random series: most at random times
// of the census' hours (with nanoseconds, which stores drop), a tenth on
// the hour, a tenth in the last microsecond of an hour and a tenth in one
// busy hour.
func (c *census) addRandom(rnd *rand.Rand, n int) {
	c.f.t.Helper()
	for i := range n {
		hour := h0.Add(time.Duration(rnd.IntN(censusHours)) * time.Hour)
		at := hour.Add(time.Duration(rnd.Int64N(int64(time.Hour))))
		switch i % 10 {
		case 1:
			at = hour
		case 2:
			at = hour.Add(time.Hour - time.Microsecond)
		case 3:
			at = h0.Add(30*time.Hour + time.Duration(rnd.Int64N(int64(time.Hour))))
		}
		c.add(c.pick(rnd), at)
	}
}

// pick returns a random series.
func (c *census) pick(rnd *rand.Rand) target {
	s := c.series()
	return s[rnd.IntN(len(s))]
}

// checkSpans checks every target within the edge cases of [edgeSpans] and
// n random spans, reading page 1 or 2 of 5 records.
func (c *census) checkSpans(t *testing.T, rnd *rand.Rand, n int) {
	t.Helper()
	spans := c.edgeSpans()
	for range n {
		spans = append(spans, span{c.randomBound(rnd), c.randomBound(rnd)})
	}
	for _, s := range spans {
		for _, tg := range c.targets() {
			c.check(t, tg, s, 1+rnd.IntN(2), 5)
		}
	}
}

// edgeSpans returns the spans whose totals take the paths of the
// counters' edges.
func (c *census) edgeSpans() []span {
	at := func(d time.Duration) *time.Time { return ptr(h0.Add(d)) }
	ist := time.FixedZone("IST", 5*3600+1800)
	first := slices.MinFunc(c.sent, func(a, b sent) int { return a.at.Compare(b.at) }).at
	return []span{
		{nil, nil},
		{at(5 * time.Hour), nil},                 // only from, on the hour
		{nil, at(50 * time.Hour)},                // only to, on the hour
		{at(24 * time.Hour), at(72 * time.Hour)}, // days, on the hour
		{at(30 * time.Hour), at(31 * time.Hour)}, // the busy hour, exactly
		{at(30*time.Hour + 10*time.Minute), at(30*time.Hour + 50*time.Minute)}, // inside one hour
		{at(29*time.Hour + 30*time.Minute), at(30*time.Hour + 30*time.Minute)}, // across one boundary
		{at(30*time.Hour - time.Microsecond), at(31*time.Hour + time.Microsecond)},
		{at(30*time.Hour + time.Microsecond), at(31*time.Hour - time.Microsecond)},
		{&first, &first},                         // from equals to
		{nil, &first},                            // to is exclusive
		{&first, nil},                            // from is inclusive
		{nil, at(-time.Hour)},                    // to before the first row
		{at((censusHours + 1) * time.Hour), nil}, // from after the last
		{at(40 * time.Hour), at(20 * time.Hour)}, // to before from
		{ptr(h0.Add(3*time.Hour + 15*time.Minute).In(ist)), // in a zone half an hour off UTC
			ptr(h0.Add(60*time.Hour + 45*time.Minute).In(ist))},
	}
}

// randomBound returns no bound (one time in ten), a random microsecond of
// the census' hours or around them, an hour, or the time of a stored
// submission or a microsecond either side.
func (c *census) randomBound(rnd *rand.Rand) *time.Time {
	switch r := rnd.IntN(10); {
	case r == 0:
		return nil
	case r < 5:
		return ptr(h0.Add(time.Duration(rnd.Int64N(int64((censusHours+4)*time.Hour))) - 2*time.Hour).Truncate(time.Microsecond))
	case r < 7:
		return ptr(h0.Add(time.Duration(rnd.IntN(censusHours+2)-1) * time.Hour))
	}
	at := c.sent[rnd.IntN(len(c.sent))].at
	return ptr(at.Add(time.Duration(rnd.IntN(3)-1) * time.Microsecond))
}
