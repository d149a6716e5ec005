package sqlstore

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Hours of list_counts stop changing once no writer stamps a row in them
// any more: a submission's created_at is the store's clock when it is
// written, so an hour that ended closeAfter ago only changes if a
// submission took longer than that from its stamp to its commit, or if a
// clock runs that far behind. [closedHours] keeps those hours' sums in
// memory, so that a list's total and the hour its page starts in cost no
// scan of the counters: only the hours since are read from the database.
const (
	// closeAfter is how long after its end an hour is closed.
	closeAfter = 15 * time.Minute
	// refreshEvery bounds how long a series is kept before it is read
	// again whole: what another instance wrote late into a closed hour, or
	// a change outside the service, shows within it.
	refreshEvery = 10 * time.Minute
	// maxClosedHours bounds the memory of the cache (8 bytes an hour): when
	// it is full it starts again empty.
	maxClosedHours = 1 << 21
)

// closedEnd returns the end of the closed hours at now: every hour before
// it is closed.
func closedEnd(now time.Time) time.Time {
	return now.Add(-closeAfter).Truncate(time.Hour)
}

// hourCount is the number of one series' rows in one hour.
type hourCount struct {
	hour int32  // hours since the Unix epoch
	n    uint32 // rows
}

// start returns the hour's first instant.
func (h hourCount) start() time.Time {
	return time.Unix(int64(h.hour)*3600, 0).UTC()
}

// epochHour returns the number of the hour of t since the Unix epoch.
func epochHour(t time.Time) int64 {
	return t.Truncate(time.Hour).Unix() / 3600
}

// seriesKey names one series of one workspace.
type seriesKey struct {
	workspace string
	counter
}

// closedSeries is one series' closed hours.
type closedSeries struct {
	end     time.Time   // the hours before end, the closed hours of the time fetched
	fetched time.Time   // the store's clock when they were read
	hours   []hourCount // newest first, the hours with rows
}

// closedHours is the cache of closed hours of every series a list read
// lately. A store's own write into a closed hour (possible only when its
// clock went back) empties it; a fill that raced with such a write is not
// kept.
type closedHours struct {
	mu     sync.Mutex
	series map[seriesKey]*closedSeries
	size   int    // hours held
	gen    uint64 // incremented by every emptying
	// maxEnd is the latest end of closed hours that any fill has read or
	// is reading, in hours since the epoch: a write before it empties the
	// cache.
	maxEnd atomic.Int64
}

// get returns the closed hours of the series k at now, newest first, and
// the end of the closed hours, reading them on c when the cache has no
// current copy.
func (ch *closedHours) get(ctx context.Context, c Conn, k seriesKey, now time.Time) ([]hourCount, time.Time, error) {
	end := closedEnd(now)
	ch.mu.Lock()
	e, gen := ch.series[k], ch.gen
	ch.mu.Unlock()
	if e != nil && e.end.Equal(end) && !now.Before(e.fetched) && now.Sub(e.fetched) < refreshEvery {
		return e.hours, end, nil
	}
	ch.announce(end)
	hours, err := readClosed(ctx, c, k, end)
	if err != nil {
		return nil, end, err
	}
	ch.keep(k, &closedSeries{end: end, fetched: now, hours: hours}, gen)
	return hours, end, nil
}

// announce raises maxEnd to end before a fill reads, so that a write
// that commits while it reads empties the cache and the fill is dropped.
func (ch *closedHours) announce(end time.Time) {
	h := epochHour(end)
	for {
		cur := ch.maxEnd.Load()
		if cur >= h || ch.maxEnd.CompareAndSwap(cur, h) {
			return
		}
	}
}

// keep stores e under k unless the cache was emptied since gen.
func (ch *closedHours) keep(k seriesKey, e *closedSeries, gen uint64) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if ch.gen != gen {
		return
	}
	if ch.series == nil || ch.size+len(e.hours) > maxClosedHours {
		ch.series, ch.size = map[seriesKey]*closedSeries{}, 0
	}
	if old := ch.series[k]; old != nil {
		ch.size -= len(old.hours)
	}
	ch.series[k] = e
	ch.size += len(e.hours)
}

// written tells the cache that a row was committed in the hour of
// createdAt: if a fill may have read that hour as closed, the cache is
// emptied. Call it after the commit.
func (ch *closedHours) written(createdAt time.Time) {
	if epochHour(createdAt) >= ch.maxEnd.Load() {
		return
	}
	ch.mu.Lock()
	defer ch.mu.Unlock()
	ch.series, ch.size = nil, 0
	ch.gen++
}

// readClosed reads the sums of the hours of series k before end.
func readClosed(ctx context.Context, c Conn, k seriesKey, end time.Time) ([]hourCount, error) {
	rows, err := c.Query(ctx, `SELECT bucket, CAST(SUM(n) AS BIGINT) FROM list_counts
		WHERE workspace_id = $1 AND list = $2 AND scope = $3 AND bucket < $4
		GROUP BY bucket ORDER BY bucket DESC`, k.workspace, k.list, k.scope, end)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanHourCount)
}

// scanHourCount scans a bucket and its sum.
func scanHourCount(r Row) (hourCount, error) {
	var bucket time.Time
	var n int64
	err := r.Scan(atTime(&bucket), &n)
	return hourCount{hour: int32(epochHour(bucket)), n: uint32(n)}, err
}
