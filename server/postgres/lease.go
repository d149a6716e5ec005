package postgres

import (
	"sync"
	"time"

	"github.com/feedbackhq/feedback/server"
)

// A process takes a key's budget from rate_limits in leases: one upsert
// reserves several requests of the window at once, and the process
// allows them from memory. Every reserved request counts in the database
// at once, so all instances together never allow more than the limit;
// an instance that holds a lease it does not use may make another refuse
// up to maxLease-1 requests of a window sooner than the limit says.
// Once the database refuses, the process refuses the rest of the window
// without asking again.
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
}

// leases holds the process's leases by key.
type leases struct {
	mu sync.Mutex
	m  map[string]*lease
}

// take allows or refuses one request of key's window at start from the
// lease held, and reports false when it holds none for that window and
// limit (the caller reserves).
func (ls *leases) take(key string, start, end time.Time, limit int) (server.Quota, bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	l := ls.m[key]
	if l == nil || !l.start.Equal(start) || l.limit != limit {
		return server.Quota{}, false
	}
	if l.spent {
		return server.Quota{Limit: limit, Reset: end}, true
	}
	if l.left == 0 {
		return server.Quota{}, false
	}
	l.left--
	l.count++
	return server.Quota{Allowed: true, Limit: limit, Remaining: max(limit-l.count, 0), Reset: end}, true
}

// grant records a reservation of n requests that brought key's window at
// start to count in the database, and returns the quota of the request
// that made it: allowed when the reservation was not all past the limit.
func (ls *leases) grant(key string, start, end time.Time, limit, count, n int) server.Quota {
	before := count - n // the window's count before this reservation
	got := min(max(limit-before, 0), n)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.m == nil || len(ls.m) > 100_000 {
		ls.m = map[string]*lease{}
	}
	l := ls.m[key]
	if l == nil || !l.start.Equal(start) || l.limit != limit {
		l = &lease{start: start, limit: limit}
		ls.m[key] = l
	}
	if got == 0 {
		l.spent, l.left = true, 0
		return server.Quota{Limit: limit, Reset: end}
	}
	l.left += got - 1
	l.count = max(l.count, before+1)
	return server.Quota{Allowed: true, Limit: limit, Remaining: max(limit-l.count, 0), Reset: end}
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
