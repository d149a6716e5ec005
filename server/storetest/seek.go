package storetest

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// testTotalsEveryPage stores submissions across the census' hours, a
// dozen of them at one created_at and some on an hour's boundary, and
// reads every page (and the one past the end) of every target within
// the edge spans and random ones, at random page sizes, comparing each
// with the census' order: a page that starts in the hour its offset
// falls in must be the page of a plain OFFSET from the top.
func testTotalsEveryPage(t *testing.T, f *fixture) {
	rnd := rand.New(rand.NewPCG(7, 8))
	c := newCensus(f)
	c.addRandom(rnd, 150)
	for _, at := range []time.Time{h0.Add(20*time.Hour + 7*time.Minute), h0.Add(45 * time.Hour)} {
		for range 12 {
			c.add(c.pick(rnd), at)
		}
	}
	spans := c.edgeSpans()
	for range 10 {
		spans = append(spans, span{c.randomBound(rnd), c.randomBound(rnd)})
	}
	for _, s := range spans {
		for _, tg := range c.targets() {
			per := 1 + rnd.IntN(7)
			for page := 1; page <= len(c.want(tg, s))/per+2; page++ {
				c.check(t, tg, s, page, per)
			}
		}
	}
}

// testTotalsCursorWalk walks every target within a few spans page by
// page with cursors while submissions are added between the pages: the
// walk must see the submissions that existed when it started exactly
// once, in list order.
func testTotalsCursorWalk(t *testing.T, f *fixture) {
	rnd := rand.New(rand.NewPCG(9, 10))
	c := newCensus(f)
	c.addRandom(rnd, 60)
	spans := c.edgeSpans()[:4]
	for range 2 {
		spans = append(spans, span{c.randomBound(rnd), c.randomBound(rnd)})
	}
	for _, s := range spans {
		for _, tg := range c.targets() {
			c.walk(t, rnd, tg, s, 2+rnd.IntN(4))
		}
	}
}

// walk checks one cursor walk of tg within s, per records a page, and
// adds a submission after each page: at a random time, or at the
// created_at of the cursor.
func (c *census) walk(t *testing.T, rnd *rand.Rand, tg target, s span, per int) {
	t.Helper()
	start := c.want(tg, s)
	at := map[string]time.Time{}
	for _, r := range c.sent {
		at[r.id] = r.at
	}
	var seen []string
	p := feedback.ListParams{Page: 1, PerPage: per, From: s.from, To: s.to}
	for range 10*len(start) + 2 {
		ids, _, err := c.list(tg, p)
		if err != nil {
			t.Fatalf("%v within %v after %v: %v", tg, s, p.After, err)
		}
		seen = append(seen, ids...)
		if len(ids) < per {
			break
		}
		last := ids[len(ids)-1]
		p.After = &feedback.Cursor{CreatedAt: at[last], ID: last}
		if len(seen)%2 == 0 {
			c.add(c.pick(rnd), h0.Add(time.Duration(rnd.Int64N(int64(censusHours*time.Hour)))).Truncate(time.Microsecond))
		} else {
			c.add(tg.orAny(c, rnd), at[last])
		}
		r := c.sent[len(c.sent)-1]
		at[r.id] = r.at
	}
	old := map[string]bool{}
	for _, id := range start {
		old[id] = true
	}
	walked := []string{}
	for _, id := range seen {
		if old[id] {
			walked = append(walked, id)
		}
	}
	wantEqual(t, fmt.Sprintf("%v within %v by cursor, %d a page: the rows that existed at the start", tg, s, per), start, walked)
	if dup := duplicates(seen); len(dup) > 0 {
		t.Errorf("%v within %v by cursor: seen twice: %v", tg, s, dup)
	}
}

// orAny returns tg when it is a series, or a random series of its list.
func (tg target) orAny(c *census, rnd *rand.Rand) target {
	for tg.scope == "" {
		tg = c.pick(rnd)
	}
	return tg
}

// duplicates returns the ids that occur more than once in ids.
func duplicates(ids []string) []string {
	n := map[string]int{}
	var out []string
	for _, id := range ids {
		if n[id]++; n[id] == 2 {
			out = append(out, id)
		}
	}
	return out
}

// testTotalsEveryPageConcurrent stores the submissions of a few hours
// from concurrent writers, so that on PostgreSQL an hour's counter is
// split over several shards (writers never wait for each other's
// counter row), and reads every page: the hour a page starts in, and
// the rows newer than it, must add up the hour's shards.
func testTotalsEveryPageConcurrent(t *testing.T, f *fixture) {
	c := newCensus(f)
	tg := c.series()[0]
	const writers, each = 8, 6
	for _, at := range []time.Time{h0.Add(3*time.Hour + time.Minute), h0.Add(5 * time.Hour), h0.Add(9*time.Hour + 59*time.Minute)} {
		f.clock.Set(at)
		ids := make(chan string, writers*each)
		var wg sync.WaitGroup
		for range writers {
			wg.Go(func() {
				for range each {
					id := feedback.NewID()
					if created, err := c.send(tg, id, []byte(id)); err != nil || !created {
						t.Errorf("send to %v: created %v, %v", tg, created, err)
						return
					}
					ids <- id
				}
			})
		}
		wg.Wait()
		close(ids)
		for id := range ids {
			c.record(tg, id)
		}
	}
	for _, s := range c.edgeSpans() {
		for _, per := range []int{1, 5, 7} {
			for page := 1; page <= len(c.want(tg, s))/per+2; page++ {
				c.check(t, tg, s, page, per)
			}
		}
	}
}
