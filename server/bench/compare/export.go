package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server/bench/outside"
)

// exportRun is one download of the whole seeded list as CSV.
type exportRun struct {
	rows   int
	took   time.Duration
	peakKB int64 // the server's peak resident memory during the download
}

// exportPath is the export both servers answer.
const exportPath = "/api/v1/hygiene/export?format=csv"

// export downloads the whole list from t with curl pinned to the client
// CPUs, counting its lines, and reads the server's peak memory meanwhile
// (VmHWM, reset before through clear_refs).
func (s *stage) export(ctx context.Context, t target) (exportRun, error) {
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", t.pid), []byte("5"), 0); err != nil {
		return exportRun{}, fmt.Errorf("reset the peak memory: %w", err)
	}
	auth := ""
	if t.name == "feedbackd" {
		auth = "-H 'Authorization: Bearer " + s.token + "' "
	}
	script := "set -o pipefail; curl -sS --fail " + auth + "'" + t.base + exportPath + "' | wc -l"
	start := time.Now()
	out, err := exec.CommandContext(ctx, "taskset", "-c", s.c.cpus[1], "bash", "-c", script).CombinedOutput()
	took := time.Since(start)
	if err != nil {
		return exportRun{}, fmt.Errorf("curl: %w\n%s", err, out)
	}
	lines, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return exportRun{}, fmt.Errorf("wc: %q", out)
	}
	peak, err := outside.StatusKB(t.pid, "VmHWM")
	return exportRun{rows: lines - 1, took: took, peakKB: peak}, err
}

// rowsPerSec is the run's throughput.
func (r exportRun) rowsPerSec() float64 { return float64(r.rows) / r.took.Seconds() }

// printExports writes the export row: each server's median rows per
// second with the range, its median peak memory, and the ratio.
func printExports(w io.Writer, runs map[string][]exportRun) {
	f, b := runs["feedbackd"], runs["bare"]
	if len(f) == 0 || len(b) == 0 {
		return
	}
	fmt.Fprintln(w, "\n| CSV export of the whole list | feedbackd rows/s | time, peak RSS | bare (COPY … TO STDOUT on PostgreSQL) rows/s | time, peak RSS | ratio |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	fr, br := exportMedian(f, exportRun.rowsPerSec), exportMedian(b, exportRun.rowsPerSec)
	fmt.Fprintf(w, "| %d rows | %s | %s | %s | %s | %.2f |\n", f[0].rows, exportSpan(f), exportCost(f), exportSpan(b), exportCost(b), fr/br)
}

// exportMedian is median for export runs.
func exportMedian(rs []exportRun, v func(exportRun) float64) float64 {
	ms := make([]measure, len(rs))
	for i, r := range rs {
		ms[i] = measure{rps: v(r)}
	}
	return median(ms, rps)
}

// exportSpan is the median rows per second with its range.
func exportSpan(rs []exportRun) string {
	lo, hi := rs[0].rowsPerSec(), rs[0].rowsPerSec()
	for _, r := range rs {
		lo, hi = min(lo, r.rowsPerSec()), max(hi, r.rowsPerSec())
	}
	return fmt.Sprintf("%.0f (%.0f–%.0f)", exportMedian(rs, exportRun.rowsPerSec), lo, hi)
}

// exportCost is the median time and peak memory.
func exportCost(rs []exportRun) string {
	took := time.Duration(exportMedian(rs, func(r exportRun) float64 { return float64(r.took) }))
	peak := exportMedian(rs, func(r exportRun) float64 { return float64(r.peakKB) })
	return fmt.Sprintf("%s, %.0f MB", took.Round(10*time.Millisecond), peak/1024)
}

// exports downloads the whole list once from each server, interleaved.
func (s *stage) exports(ctx context.Context, rep int, runs map[string][]exportRun) error {
	for _, t := range s.targets(rep) {
		if err := s.quiesce(ctx); err != nil {
			return err
		}
		r, err := s.export(ctx, t)
		if err != nil {
			return fmt.Errorf("export from %s: %w", t.name, err)
		}
		log.Printf("rep %d: %-44s %-9s %8.0f rows/s  %s, peak %d MB", rep+1, "CSV export", t.name, r.rowsPerSec(), r.took.Round(time.Millisecond), r.peakKB/1024)
		runs[t.name] = append(runs[t.name], r)
	}
	return nil
}
