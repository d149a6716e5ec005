package device

import (
	"sync"
	"time"
)

// targetTTL is how long a resolved poster serves submissions before it
// is read again. Revocation needs no wait: the INSERT of a submission
// checks the poster in the database (server.SubmissionStore), on every
// instance, and deleting a location revokes its posters. A review's or
// survey's status is read for every submission (withForm). What the
// cache may hold stale for this long is the location's name, shown on
// a form that comes back with an error.
const targetTTL = 5 * time.Second

// maxTargets bounds the cache; a full cache starts again empty.
const maxTargets = 10_000

// targets caches posterTarget's results by poster code for the submit
// path, so that a submission does not read its poster, location and
// form again. It is safe for concurrent use.
type targets struct {
	mu sync.Mutex
	m  map[string]cachedTarget
}

type cachedTarget struct {
	t     *target
	until time.Time
}

// get returns the target of code resolved less than targetTTL before now.
func (c *targets) get(code string, now time.Time) (*target, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[code]
	if !ok || !now.Before(e.until) {
		return nil, false
	}
	return e.t, true
}

// put remembers t as the target of code, resolved at now.
func (c *targets) put(code string, t *target, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxTargets {
		c.m = map[string]cachedTarget{}
	}
	c.m[code] = cachedTarget{t: t, until: now.Add(targetTTL)}
}
