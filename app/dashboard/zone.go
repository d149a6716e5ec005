package dashboard

import "time"

// zone is the workspace's time zone (an IANA name): the statistics'
// days are its, so the overview names and finds days in it, not in the
// browser's zone. Its dates come from the browser's Intl in the wasm
// (zone_js.go: no time zone database in the download) and from Go's
// database elsewhere (zone_other.go).
type zone string

// day is one local day of a statistics period.
type day struct {
	key   string    // its date, 2006-01-02
	label string    // its name for people, "Tue 24 Nov"
	noon  time.Time // an instant within it
}

// dayStart returns the first instant of t's local day in z: the earliest
// whole minute with t's date (offsets are whole quarters of an hour).
func (z zone) dayStart(t time.Time) time.Time {
	d := z.date(t)
	lo, hi := t.Add(-26*time.Hour).Truncate(time.Minute), t.Truncate(time.Minute)
	for hi.Sub(lo) > time.Minute {
		mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Minute)
		if z.date(mid) == d {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// lastDays returns the n local days that end with now's, oldest first,
// and the period they span, [from, to).
func (z zone) lastDays(n int, now time.Time) (days []day, from, to time.Time) {
	today := z.dayStart(now)
	from = z.dayStart(today.Add(-time.Duration(n-1)*24*time.Hour + 12*time.Hour))
	to = z.dayStart(today.Add(36 * time.Hour))
	for i := range n {
		noon := from.Add(time.Duration(i)*24*time.Hour + 12*time.Hour)
		days = append(days, day{key: z.date(noon), label: z.label(noon), noon: noon})
	}
	return days, from, to
}
