package storetest

import (
	"sync"
	"time"
)

// T0 is where a test's [Clock] starts: not in UTC and with nanoseconds,
// so that tests see stores convert to UTC and truncate to microseconds.
var T0 = time.Date(2026, 11, 21, 8, 47, 29, 507123456, time.FixedZone("CET", 3600))

// Clock is a manual clock for tests, safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// stored returns the clock's time as stores keep it: UTC, microseconds.
func (c *Clock) stored() time.Time {
	return c.Now().UTC().Truncate(time.Microsecond)
}
