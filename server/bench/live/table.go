package main

import (
	"fmt"
	"io"
	"time"
)

// row is one scenario's line of the table.
type row struct {
	scenario  string
	instances int
	sockets   int
	load      string
	delivered string
	lat       summary // n == 0: nothing was measured
	accept    time.Duration
	memory    string
	cpu       string // each side's share of one CPU during the load
	goal      string
}

// printTable writes the machine's facts and one Markdown row per
// scenario.
func printTable(w io.Writer, facts string, rows []row) {
	fmt.Fprintf(w, "\n%s\n\n", facts)
	fmt.Fprintln(w, "| scenario | instances | sockets | submissions | delivered / expected | p50 | p99 | max | sockets accepted in | feedbackd memory | CPU used (of one) | goal |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.scenario, r.instances, thousands(r.sockets), r.load, r.delivered,
			latency(r.lat, r.lat.p50), latency(r.lat, r.lat.p99), latency(r.lat, r.lat.max),
			round(r.accept), r.memory, r.cpu, r.goal)
	}
}

// latency writes d, or a dash when the row measured no latency.
func latency(s summary, d time.Duration) string {
	if s.n == 0 {
		return "—"
	}
	return round(d).String()
}

// round keeps three significant digits or so: 4.27ms, 31.4ms, 1.2s.
func round(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 100*time.Millisecond:
		return d.Round(time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(10 * time.Microsecond)
}
