// Command ratio reads `go test -bench` output from standard input, echoes
// it, and then prints each service benchmark beside its bare baseline:
// time per request of both and the ratio bare/service, the share of the
// baseline's throughput the service reaches (the goal is >= 0.8).
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// line matches "BenchmarkName/kind/side-N   iterations   123 ns/op".
var line = regexp.MustCompile(`^(Benchmark\S+)/(feedbackd|bare)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

func main() {
	results, err := parse(io.TeeReader(os.Stdin, os.Stdout))
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratio:", err)
		os.Exit(1)
	}
	fmt.Print(table(results))
}

// pair is the time per operation of one benchmark on both sides.
type pair struct{ service, bare float64 }

func parse(r io.Reader) (map[string]*pair, error) {
	out := map[string]*pair{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := line.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			return nil, err
		}
		p := out[m[1]]
		if p == nil {
			p = &pair{}
			out[m[1]] = p
		}
		if m[2] == "bare" {
			p.bare = ns
		} else {
			p.service = ns
		}
	}
	return out, sc.Err()
}

func table(results map[string]*pair) string {
	names := make([]string, 0, len(results))
	for n := range results {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-40s %14s %14s %8s\n", "benchmark", "feedbackd", "bare", "ratio")
	for _, n := range names {
		p := results[n]
		if p.service == 0 || p.bare == 0 {
			continue
		}
		fmt.Fprintf(&b, "%-40s %14s %14s %8.2f\n", strings.TrimPrefix(n, "Benchmark"), dur(p.service), dur(p.bare), p.bare/p.service)
	}
	return b.String()
}

func dur(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms/op", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs/op", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns/op", ns)
}
