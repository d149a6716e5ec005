package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// printTable writes one Markdown row per scenario: each server's median
// requests per second with the range over the repetitions, their p50 and
// p99 medians, and the ratio of the medians.
func printTable(w io.Writer, c config, scs []scenario, results map[string][]measure) {
	fmt.Fprintf(w, "\n%s, %d × %d s interleaved, servers and database on CPU %s, wrk on CPU %s; medians (min–max)\n\n",
		c.store, c.reps, c.secs, c.cpus[0], c.cpus[1])
	fmt.Fprintln(w, "| load | feedbackd req/s | p50 / p99 | bare req/s | p50 / p99 | ratio |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, sc := range scs {
		f, b := results[sc.name+"\x00feedbackd"], results[sc.name+"\x00bare"]
		fr, br := median(f, rps), median(b, rps)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.2f |\n", sc.name, span(f), latency(f), span(b), latency(b), fr/br)
	}
}

func rps(m measure) float64 { return m.rps }

// median returns the median of f over ms.
func median(ms []measure, f func(measure) float64) float64 {
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = f(m)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// span is the median requests per second with its range.
func span(ms []measure) string {
	lo, hi := ms[0].rps, ms[0].rps
	for _, m := range ms {
		lo, hi = min(lo, m.rps), max(hi, m.rps)
	}
	return fmt.Sprintf("%.0f (%.0f–%.0f)", median(ms, rps), lo, hi)
}

// latency is the median p50 and p99.
func latency(ms []measure) string {
	p50 := time.Duration(median(ms, func(m measure) float64 { return float64(m.p50) }))
	p99 := time.Duration(median(ms, func(m measure) float64 { return float64(m.p99) }))
	return fmt.Sprintf("%s / %s", round(p50), round(p99))
}

func round(d time.Duration) time.Duration {
	if d > 10*time.Millisecond {
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(10 * time.Microsecond)
}
