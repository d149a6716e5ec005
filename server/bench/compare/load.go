package main

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"time"
)

// scenario is one load: a request and a number of connections.
type scenario struct {
	name  string
	path  string // appended to the target's base URL
	conns int
	post  bool // a new submission per request (wrk script)
	auth  bool // feedbackd needs the Bearer token
}

// scenarios are the loads of one repetition: ingest at 1 and 16
// connections, the first list page and one near the end of the seeded rows.
func scenarios(c config, s *stage) []scenario {
	deep := max(1, c.rows/50*19/20)
	return []scenario{
		{name: "POST /q/{code}, c=1", path: "/q/" + s.code, conns: 1, post: true},
		{name: "POST /q/{code}, c=16", path: "/q/" + s.code, conns: 16, post: true},
		{name: "GET /api/v1/hygiene page 1, c=8", path: "/api/v1/hygiene?per_page=50", conns: 8, auth: true},
		{name: fmt.Sprintf("GET /api/v1/hygiene page %d, c=8", deep),
			path: fmt.Sprintf("/api/v1/hygiene?page=%d&per_page=50", deep), conns: 8, auth: true},
	}
}

// measure is what one wrk run reports.
type measure struct {
	rps      float64
	p50, p99 time.Duration
	errors   int
}

// postScript makes wrk post a new hygiene submission per request; the
// load scripts use it too. compare runs from the module's root.
const postScript = "server/bench/post.lua"

// load runs wrk pinned to the client CPUs against t. Its timeout is 30 s:
// the bare handler's deep pages are OFFSET scans of a second or more.
func (s *stage) load(ctx context.Context, sc scenario, t target) (measure, error) {
	args := []string{"-c", s.c.cpus[1], "wrk", "-t1", "-c" + strconv.Itoa(sc.conns), "-d" + strconv.Itoa(s.c.secs) + "s", "--timeout", "30s", "--latency"}
	if sc.post {
		args = append(args, "-s", postScript)
	}
	if sc.auth && t.name == "feedbackd" {
		args = append(args, "-H", "Authorization: Bearer "+s.token)
	}
	out, err := exec.CommandContext(ctx, "taskset", append(args, t.base+sc.path)...).CombinedOutput()
	if err != nil {
		return measure{}, fmt.Errorf("wrk: %w\n%s", err, out)
	}
	m, err := parseWrk(string(out))
	if err == nil && m.errors > 0 {
		err = fmt.Errorf("%d requests failed or answered non-2xx:\n%s", m.errors, out)
	}
	return m, err
}

var (
	rpsRE    = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	p50RE    = regexp.MustCompile(`\s50%\s+([0-9.]+)(us|ms|s)`)
	p99RE    = regexp.MustCompile(`\s99%\s+([0-9.]+)(us|ms|s)`)
	non2xxRE = regexp.MustCompile(`Non-2xx or 3xx responses:\s+([0-9]+)`)
	sockRE   = regexp.MustCompile(`Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)`)
)

// parseWrk reads wrk's --latency report.
func parseWrk(out string) (measure, error) {
	var m measure
	r := rpsRE.FindStringSubmatch(out)
	p50, p99 := p50RE.FindStringSubmatch(out), p99RE.FindStringSubmatch(out)
	if r == nil || p50 == nil || p99 == nil {
		return m, fmt.Errorf("cannot read wrk's report:\n%s", out)
	}
	m.rps, _ = strconv.ParseFloat(r[1], 64)
	m.p50, m.p99 = duration(p50[1], p50[2]), duration(p99[1], p99[2])
	if n := non2xxRE.FindStringSubmatch(out); n != nil {
		v, _ := strconv.Atoi(n[1])
		m.errors += v
	}
	if e := sockRE.FindStringSubmatch(out); e != nil {
		for _, f := range e[1:] {
			v, _ := strconv.Atoi(f)
			m.errors += v
		}
	}
	return m, nil
}

func duration(v, unit string) time.Duration {
	f, _ := strconv.ParseFloat(v, 64)
	switch unit {
	case "us":
		return time.Duration(f * float64(time.Microsecond))
	case "ms":
		return time.Duration(f * float64(time.Millisecond))
	}
	return time.Duration(f * float64(time.Second))
}
