package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// A process takes a key's budget from rate_limits in leases: one upsert
// reserves several requests of the window at once, and the process
// allows them from memory. Every reserved request counts in the database
// at once, so all instances together never allow more than the limit;
// an instance that holds a lease it does not use may make another refuse
// up to maxLease-1 requests of a window sooner than the limit says (one
// lease per instance: while one request reserves, the others of the
// process wait for it). Once the database refuses, the process refuses
// the rest of the window without asking again.
const maxLease = 64

// leaseSize is how many requests one reservation asks for: a sixty-fourth
// of the limit, between 1 and maxLease, so that a small limit is counted
// request by request.
func leaseSize(limit int) int {
	return min(max(limit/64, 1), maxLease)
}

// lease is this process's share of one key's window.
type lease struct {
	start time.Time // the window's start
	limit int
	left  int  // requests this process may still allow
	count int  // the window's count when last reserved, less left: for Remaining
	spent bool // the database refused: the window is over for this key
	// refill is closed when the reservation in flight ends; nil when none is.
	refill chan struct{}
}

// leases holds the process's leases by key.
type leases struct {
	mu sync.Mutex
	m  map[string]*lease
}

// current returns key's lease of the window at start, made anew when the
// one held is of another window or limit. Call it with mu held.
func (ls *leases) current(key string, start time.Time, limit int) *lease {
	if ls.m == nil || len(ls.m) > 100_000 {
		ls.m = map[string]*lease{}
	}
	l := ls.m[key]
	if l == nil || !l.start.Equal(start) || l.limit != limit {
		l = &lease{start: start, limit: limit}
		ls.m[key] = l
	}
	return l
}

// take allows or refuses one request of key's window at start from the
// lease held. When the lease is used up and no other request of the
// process is reserving, it returns the lease to refill: the caller
// reserves and then calls [leases.grant] or [leases.abort] with it.
// While another request reserves, take waits for it.
func (ls *leases) take(ctx context.Context, key string, start, end time.Time, limit int) (server.Quota, *lease, error) {
	for {
		ls.mu.Lock()
		l := ls.current(key, start, limit)
		if q, ok := l.answer(end); ok {
			ls.mu.Unlock()
			return q, nil, nil
		}
		switch {
		case l.refill == nil:
			l.refill = make(chan struct{})
			ls.mu.Unlock()
			return server.Quota{}, l, nil
		}
		wait := l.refill
		ls.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return server.Quota{}, nil, ctx.Err()
		}
	}
}

// answer allows or refuses one request from l, when l can tell without
// a reservation. Call it with mu held.
func (l *lease) answer(end time.Time) (server.Quota, bool) {
	switch {
	case l.spent:
		return server.Quota{Limit: l.limit, Reset: end}, true
	case l.left > 0:
		l.left--
		l.count++
		return server.Quota{Allowed: true, Limit: l.limit, Remaining: max(l.limit-l.count, 0), Reset: end}, true
	}
	return server.Quota{}, false
}

// tryTake is take when it needs no reservation: ok is false, and
// nothing taken, when key's lease is used up.
func (ls *leases) tryTake(key string, start, end time.Time, limit int) (server.Quota, bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.current(key, start, limit).answer(end)
}

// grant records in l (nil: key's lease of the window at start) a
// reservation of n requests that brought the window to count in the
// database, wakes the requests waiting for it, and returns the quota of
// the request that made it: allowed when the reservation was not all
// past the limit.
func (ls *leases) grant(l *lease, key string, start, end time.Time, limit, count, n int) server.Quota {
	before := count - n // the window's count before this reservation
	got := min(max(limit-before, 0), n)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if l == nil {
		l = ls.current(key, start, limit)
	}
	ls.wake(l)
	if got == 0 {
		l.spent, l.left = true, 0
		return server.Quota{Limit: limit, Reset: end}
	}
	l.left += got - 1
	l.count = max(l.count, before+1)
	return server.Quota{Allowed: true, Limit: limit, Remaining: max(limit-l.count, 0), Reset: end}
}

// abort ends the reservation for l that failed or did not happen (the
// token was revoked), waking the requests waiting for it.
func (ls *leases) abort(l *lease) {
	if l == nil {
		return
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.wake(l)
}

// wake closes l's refill channel. Call it with mu held.
func (ls *leases) wake(l *lease) {
	if l.refill != nil {
		close(l.refill)
		l.refill = nil
	}
}

// refund gives back a request that take allowed but that did not happen
// (its token was revoked).
func (ls *leases) refund(key string, start time.Time) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if l := ls.m[key]; l != nil && l.start.Equal(start) && !l.spent {
		l.left++
		l.count--
	}
}
