package main

import (
	"fmt"
	"os"
	"time"

	"github.com/feedbackhq/feedback/server/bench/outside"
)

// usage measures the processor time that feedbackd's instances,
// PostgreSQL and this program use over a window, so that a row shows
// which side was saturated: a load generator at 100 % of its CPU
// measures itself, not feedbackd.
type usage struct {
	procs []*outside.Proc
	pg    *outside.Pinned
	begin time.Time
	t     [3]time.Duration // feedbackd, PostgreSQL, load at the beginning
}

// startUsage begins a window.
func startUsage(procs []*outside.Proc, pg *outside.Pinned) *usage {
	u := &usage{procs: procs, pg: pg}
	u.t, u.begin = u.read(), time.Now()
	return u
}

// read returns the processor time used so far by each side.
func (u *usage) read() [3]time.Duration {
	var t [3]time.Duration
	for _, p := range u.procs {
		d, _ := outside.CPUTime(p.PID())
		t[0] += d
	}
	t[1] = u.pg.CPUTime()
	t[2], _ = outside.CPUTime(os.Getpid())
	return t
}

// cell ends the window and writes each side's share of one CPU.
func (u *usage) cell() string {
	return shares(u.t, u.read(), time.Since(u.begin))
}

// shares writes how much of one CPU each side used between two
// readings wall apart.
func shares(before, after [3]time.Duration, wall time.Duration) string {
	pct := func(i int) float64 { return 100 * float64(after[i]-before[i]) / float64(wall) }
	return fmt.Sprintf("feedbackd %.0f%%, PostgreSQL %.0f%%, load %.0f%%", pct(0), pct(1), pct(2))
}
