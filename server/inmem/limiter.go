package inmem

import (
	"context"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// Limiter is a fixed-window rate limiter for one process, safe for
// concurrent use. Every call to Take counts, allowed or not.
type Limiter struct {
	now func() time.Time

	mu        sync.Mutex
	windows   map[windowKey]*counter
	nextSweep time.Time
}

// counter counts the requests of one key in one window.
type counter struct {
	n   int
	end time.Time
}

type windowKey struct {
	key   string
	start int64 // Unix microseconds
}

// sweepEvery is how often Take forgets windows that have ended.
const sweepEvery = time.Minute

// NewLimiter returns a Limiter on the clock now (time.Now if nil).
func NewLimiter(now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{now: now, windows: map[windowKey]*counter{}}
}

var _ server.Limiter = (*Limiter)(nil)

// Take counts one request against key's budget of limit per window. A key
// must always be used with the same window.
func (l *Limiter) Take(_ context.Context, key string, limit int, window time.Duration) (server.Quota, error) {
	now := l.now()
	start, end := Window(now, window)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !now.Before(l.nextSweep) {
		l.sweep(now)
	}
	k := windowKey{key, start.UnixMicro()}
	c := l.windows[k]
	if c == nil {
		c = &counter{end: end}
		l.windows[k] = c
	}
	c.n++
	return NewQuota(c.n, limit, end), nil
}

// sweep forgets every window that has ended; l.mu is held.
func (l *Limiter) sweep(now time.Time) {
	for k, c := range l.windows {
		if !now.Before(c.end) {
			delete(l.windows, k)
		}
	}
	l.nextSweep = now.Add(sweepEvery)
}

// Window returns the fixed window of length d (at least a microsecond)
// that holds t: windows are aligned to the Unix epoch, so every process
// computes the same ones.
func Window(t time.Time, d time.Duration) (start, end time.Time) {
	size := max(d.Microseconds(), 1)
	us := t.UnixMicro()
	us -= ((us % size) + size) % size
	start = time.UnixMicro(us).UTC()
	return start, start.Add(time.Duration(size) * time.Microsecond)
}

// NewQuota returns the quota of the count-th request of a window that
// ends at reset, for a budget of limit.
func NewQuota(count, limit int, reset time.Time) server.Quota {
	return server.Quota{
		Allowed:   count <= limit,
		Limit:     limit,
		Remaining: max(limit-count, 0),
		Reset:     reset,
	}
}
