package storetest

import (
	"math/rand/v2"
	"testing"
	"time"
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
