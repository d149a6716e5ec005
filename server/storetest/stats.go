package storetest

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func testStats(t *testing.T, h harness) {
	h.run(t, "HygieneBuckets", testStatsHygieneBuckets)
	h.run(t, "LateSync", testStatsLateSync)
	h.run(t, "Repeat", testStatsRepeat)
	h.run(t, "DeletedLocation", testStatsDeletedLocation)
	h.run(t, "Concurrent", testStatsConcurrent)
	h.run(t, "RollupConcurrent", testStatsRollupConcurrent)
	h.run(t, "Reviews", testStatsReviews)
	h.run(t, "Surveys", testStatsSurveys)
	h.run(t, "Isolation", testStatsIsolation)
	h.run(t, "Invalid", testStatsInvalid)
	h.run(t, "Settings", testStatsSettings)
}

// rateAt stores a hygiene rating captured at captured, created at the
// clock's now, and returns it.
func (f *fixture) rateAt(ws, location string, rating int, captured time.Time, tags ...string) *feedback.HygieneSubmission {
	f.t.Helper()
	h := &feedback.HygieneSubmission{ID: feedback.NewID(), Rating: rating, LocationID: location, Tags: tags,
		Language: "en", Source: feedback.SourceKiosk, CapturedAt: feedback.NewTime(captured)}
	_, err := f.s.AddHygiene(f.ctx(), ws, h, []byte(h.ID))
	f.must(err)
	return h
}

// hygieneStats returns the hygiene statistics of [from, to).
func (f *fixture) hygieneStats(ws, location, bucket string, from, to time.Time) *feedback.HygieneStats {
	f.t.Helper()
	return rolledUp(f, ws, func() (*feedback.HygieneStats, error) {
		return f.s.HygieneStats(f.ctx(), ws, feedback.StatsQuery{From: feedback.NewTime(from), To: feedback.NewTime(to),
			Bucket: bucket, LocationID: location})
	})
}

// rolledUp returns what read returns, after checking that it returns the
// same before and after the workspace's events are rolled up into the
// counters: a read adds the events that the counters do not hold yet, so
// the rollup changes what a read costs, never what it returns.
func rolledUp[T any](f *fixture, ws string, read func() (T, error)) T {
	f.t.Helper()
	before, err := read()
	f.must(err)
	_, err = f.s.RollupStats(f.ctx(), ws)
	f.must(err)
	after, err := read()
	f.must(err)
	wantEqual(f.t, "the statistics after the rollup", before, after)
	return after
}

// hb returns the hygiene bucket of a distribution and tags, starting at
// start (the zero time for a total).
func hb(start time.Time, dist [5]int, tags map[string]int) feedback.HygieneBucket {
	b := feedback.HygieneBucket{Tags: map[string]int{}}
	if !start.IsZero() {
		b.Start = feedback.NewTime(start)
	}
	sum := 0
	for i, n := range dist {
		b.Count += n
		sum += n * (i + 1)
	}
	b.Distribution = dist
	if b.Count > 0 {
		avg, low := float64(sum)/float64(b.Count), float64(dist[0]+dist[1])/float64(b.Count)
		b.Average, b.LowShare = &avg, &low
	}
	for _, t := range feedback.HygieneTags {
		b.Tags[t] = tags[t]
	}
	return b
}

func utc(month time.Month, day, hour, min int) time.Time {
	return time.Date(2026, month, day, hour, min, 0, 0, time.UTC)
}

// testStatsHygieneBuckets rates around the end of summer time in Berlin
// (2026-10-25, 03:00 CEST becomes 02:00 CET), all synced weeks later:
// hours, days (one of 25 hours) and weeks (from Monday) follow the
// workspace's zone, per location and for the workspace, with the
// averages, low shares, tags and the heatmap.
func testStatsHygieneBuckets(t *testing.T, f *fixture) {
	w := f.world("stats-buckets")
	lobby := f.location(w.ws).ID
	_, err := f.s.UpdateWorkspaceSettings(f.ctx(), w.ws, feedback.WorkspaceSettings{TimeZone: "Europe/Berlin"})
	f.must(err)
	f.rateAt(w.ws, w.location, 1, utc(10, 24, 21, 30), feedback.TagNoSoap)                       // Sat 23:30 CEST
	f.rateAt(w.ws, w.location, 2, utc(10, 24, 22, 10), feedback.TagNoSoap, feedback.TagBadSmell) // Sun 00:10 CEST
	f.rateAt(w.ws, w.location, 5, utc(10, 25, 0, 20))                                            // Sun 02:20 CEST
	f.rateAt(w.ws, w.location, 4, utc(10, 25, 1, 20))                                            // Sun 02:20 CET
	f.rateAt(w.ws, lobby, 3, utc(10, 25, 23, 30))                                                // Mon 00:30 CET
	f.rateAt(w.ws, lobby, 5, utc(10, 27, 0, 0))                                                  // after the range
	from, to := utc(10, 23, 22, 0), utc(10, 26, 23, 0)                                           // Berlin's Oct 24 to 27

	day := f.hygieneStats(w.ws, "", feedback.BucketDay, from, to)
	wantEqual(t, "the workspace's days", []feedback.HygieneBucket{
		hb(utc(10, 23, 22, 0), [5]int{1, 0, 0, 0, 0}, map[string]int{feedback.TagNoSoap: 1}),
		hb(utc(10, 24, 22, 0), [5]int{0, 1, 0, 1, 1}, map[string]int{feedback.TagNoSoap: 1, feedback.TagBadSmell: 1}),
		hb(utc(10, 25, 23, 0), [5]int{0, 0, 1, 0, 0}, nil),
	}, day.Buckets)
	wantEqual(t, "the workspace's total", hb(time.Time{}, [5]int{1, 1, 1, 1, 1},
		map[string]int{feedback.TagNoSoap: 2, feedback.TagBadSmell: 1}), day.Total)
	wantEqual(t, "the zone and bucket", []string{"Europe/Berlin", feedback.BucketDay}, []string{day.TimeZone, day.Bucket})
	wantEqual(t, "Sunday 02:00 (twice)", feedback.HeatCell{Count: 2, RatingSum: 9}, day.Heatmap[6][2])
	wantEqual(t, "Saturday 23:00", feedback.HeatCell{Count: 1, RatingSum: 1, Low: 1}, day.Heatmap[5][23])
	wantEqual(t, "Monday 00:00", feedback.HeatCell{Count: 1, RatingSum: 3}, day.Heatmap[0][0])

	week := f.hygieneStats(w.ws, "", feedback.BucketWeek, from, to)
	wantEqual(t, "the workspace's weeks", []feedback.HygieneBucket{
		hb(utc(10, 18, 22, 0), [5]int{1, 1, 0, 1, 1}, map[string]int{feedback.TagNoSoap: 2, feedback.TagBadSmell: 1}),
		hb(utc(10, 25, 23, 0), [5]int{0, 0, 1, 0, 0}, nil),
	}, week.Buckets)

	hour := f.hygieneStats(w.ws, w.location, feedback.BucketHour, from, to)
	wantEqual(t, "the location's hours", []feedback.HygieneBucket{
		hb(utc(10, 24, 21, 0), [5]int{1, 0, 0, 0, 0}, map[string]int{feedback.TagNoSoap: 1}),
		hb(utc(10, 24, 22, 0), [5]int{0, 1, 0, 0, 0}, map[string]int{feedback.TagNoSoap: 1, feedback.TagBadSmell: 1}),
		hb(utc(10, 25, 0, 0), [5]int{0, 0, 0, 0, 1}, nil),
		hb(utc(10, 25, 1, 0), [5]int{0, 0, 0, 1, 0}, nil),
	}, hour.Buckets)

	locs := rolledUp(f, w.ws, func() (*feedback.LocationStats, error) {
		return f.s.LocationStats(f.ctx(), w.ws, feedback.StatsQuery{From: feedback.NewTime(from), To: feedback.NewTime(to)})
	})
	counts := map[string]int{}
	for _, l := range locs.Locations {
		counts[l.LocationID] = l.Total.Count
	}
	wantEqual(t, "each location's count", map[string]int{w.location: 4, lobby: 1}, counts)
}

// testStatsLateSync stores a rating that a kiosk captured at 09:10 and
// synced at 14:05: it counts in 09:00, not in 14:00.
func testStatsLateSync(t *testing.T, f *fixture) {
	w := f.world("stats-late")
	f.clock.Set(utc(11, 20, 14, 5))
	f.rateAt(w.ws, w.location, 2, utc(11, 20, 9, 10))
	st := f.hygieneStats(w.ws, w.location, feedback.BucketHour, utc(11, 20, 0, 0), utc(11, 21, 0, 0))
	wantEqual(t, "the hours", []feedback.HygieneBucket{hb(utc(11, 20, 9, 0), [5]int{0, 1, 0, 0, 0}, nil)}, st.Buckets)
}

// testStatsRepeat stores one submission twice (an idempotent retry): it
// counts once.
func testStatsRepeat(t *testing.T, f *fixture) {
	w := f.world("stats-repeat")
	h := f.rateAt(w.ws, w.location, 3, utc(11, 20, 9, 10))
	again := &feedback.HygieneSubmission{ID: h.ID, Rating: 3, LocationID: w.location, Language: "en",
		Source: feedback.SourceKiosk, CapturedAt: h.CapturedAt}
	created, err := f.s.AddHygiene(f.ctx(), w.ws, again, []byte(h.ID))
	f.must(err)
	if created {
		t.Fatal("the repeat was stored again")
	}
	st := f.hygieneStats(w.ws, "", feedback.BucketDay, utc(11, 20, 0, 0), utc(11, 21, 0, 0))
	wantEqual(t, "the count", 1, st.Total.Count)
}

// testStatsDeletedLocation deletes a location after its ratings: they
// still count, in the workspace and by its id.
func testStatsDeletedLocation(t *testing.T, f *fixture) {
	w := f.world("stats-deleted")
	f.rateAt(w.ws, w.location, 1, utc(11, 20, 9, 10))
	f.rateAt(w.ws, w.location, 5, utc(11, 20, 10, 10))
	f.must(f.s.DeleteLocation(f.ctx(), w.ws, w.location))
	from, to := utc(11, 20, 0, 0), utc(11, 21, 0, 0)
	wantEqual(t, "the workspace's count", 2, f.hygieneStats(w.ws, "", "", from, to).Total.Count)
	wantEqual(t, "the location's count", 2, f.hygieneStats(w.ws, w.location, "", from, to).Total.Count)
}

// testStatsConcurrent rates one location from many goroutines at once:
// every rating counts (no update lost between the shards of an hour).
func testStatsConcurrent(t *testing.T, f *fixture) {
	w := f.world("stats-concurrent")
	const n = 40
	at := utc(11, 20, 9, 10)
	concurrently(t, n, func(i int) error {
		h := &feedback.HygieneSubmission{Rating: 1 + i%5, LocationID: w.location, Tags: []string{feedback.TagNoPaper},
			Language: "en", Source: feedback.SourceQR, CapturedAt: feedback.NewTime(at)}
		_, err := f.s.AddHygiene(f.ctx(), w.ws, h, []byte(feedback.NewID()))
		return err
	})
	for _, loc := range []string{"", w.location} {
		st := f.hygieneStats(w.ws, loc, feedback.BucketHour, utc(11, 20, 0, 0), utc(11, 21, 0, 0))
		wantEqual(t, "the total of "+loc, hb(time.Time{}, [5]int{n / 5, n / 5, n / 5, n / 5, n / 5},
			map[string]int{feedback.TagNoPaper: n}), st.Total)
	}
}

// testStatsRollupConcurrent rates from several writers while several
// rollups and readers run: every read holds every rating acknowledged
// before it began and none that was not yet attempted (no event counted
// twice, none missed, whichever rollup wins), and at the end the
// counters hold them all and the workspace has nothing left to roll up.
func testStatsRollupConcurrent(t *testing.T, f *fixture) {
	w := f.world("stats-rollup")
	const writers, each = 4, 25
	at := utc(11, 20, 9, 10)
	var attempted, acked atomic.Int64
	var wg, busy sync.WaitGroup
	done := make(chan struct{})
	for range writers {
		busy.Go(func() {
			for range each {
				attempted.Add(1)
				f.rateAt(w.ws, w.location, 3, at)
				acked.Add(1)
			}
		})
	}
	read := func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			low := acked.Load()
			st, err := f.s.HygieneStats(f.ctx(), w.ws, statsQuery(utc(11, 20, 0, 0), utc(11, 21, 0, 0), feedback.BucketHour, ""))
			high := attempted.Load()
			if err != nil {
				t.Error(err)
				return
			}
			if n := int64(st.Total.Count); n < low || n > high {
				t.Errorf("a read during the rollups counted %d ratings; %d were acknowledged before it, %d attempted after", n, low, high)
				return
			}
		}
	}
	roll := func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := f.s.RollupStats(f.ctx(), w.ws); err != nil {
				t.Error(err)
				return
			}
		}
	}
	for range 3 {
		wg.Go(roll)
		wg.Go(read)
	}
	busy.Wait()
	close(done)
	wg.Wait()
	_, err := f.s.RollupStats(f.ctx(), w.ws)
	f.must(err)
	behind, err := f.s.StatsWorkspaces(f.ctx())
	f.must(err)
	if slices.Contains(behind, w.ws) {
		t.Errorf("after the last rollup the workspace still has events to roll up")
	}
	st := f.hygieneStats(w.ws, "", feedback.BucketHour, utc(11, 20, 0, 0), utc(11, 21, 0, 0))
	wantEqual(t, "the total", hb(time.Time{}, [5]int{0, 0, writers * each, 0, 0}, nil), st.Total)
}
