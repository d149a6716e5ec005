package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// run sets the stage, runs the chosen scenarios in order and prints the
// table; it tears the stage down before it returns.
func run(ctx context.Context, c config) error {
	need := c.sockets
	if c.scenarios["idle"] {
		need = max(need, c.idle)
	}
	if err := raiseFileLimit(need + 256); err != nil { // and a few for the POSTs and the database
		return err
	}
	st, err := setUp(ctx, c)
	if err != nil {
		return err
	}
	defer st.Close()
	facts := machine(ctx, c)
	var rows []row
	for _, name := range scenarioNames {
		if !c.scenarios[name] {
			continue
		}
		r, err := st.scenario(ctx, name)
		st.StopServers()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(os.Stderr, "live: %s: %s; p50 %s, p99 %s, max %s; %s; %s\n", name, r.delivered,
			latency(r.lat, r.lat.p50), latency(r.lat, r.lat.p99), latency(r.lat, r.lat.max), r.memory, r.cpu)
		rows = append(rows, r)
	}
	printTable(os.Stdout, facts, rows)
	return nil
}

// scenario runs one scenario by name.
func (s *stage) scenario(ctx context.Context, name string) (row, error) {
	spread := fmt.Sprintf("fan-out, %d workspaces", len(s.tenants))
	switch name {
	case "fanout1":
		return s.fanout(ctx, fanout{name: spread, instances: 1, tenants: s.tenants,
			sockets: s.c.sockets, rate: s.c.rate, goal: 100 * time.Millisecond})
	case "fanout3":
		return s.fanout(ctx, fanout{name: spread, instances: 3, tenants: s.tenants,
			sockets: s.c.sockets, rate: s.c.rate, goal: 250 * time.Millisecond})
	case "worst":
		return s.fanout(ctx, fanout{name: "worst case, one workspace", instances: 1, tenants: s.tenants[:1],
			sockets: s.c.sockets, rate: s.c.worstRate})
	}
	return s.idle(ctx)
}

// machine describes where the run happened: the CPUs, what is pinned
// where, PostgreSQL's and Go's versions, and the date.
func machine(ctx context.Context, c config) string {
	cpuinfo, _ := os.ReadFile("/proc/cpuinfo")
	cores, model := 0, "unknown CPU"
	for l := range strings.Lines(string(cpuinfo)) {
		k, v, _ := strings.Cut(l, ":")
		switch strings.TrimSpace(k) {
		case "processor":
			cores++
		case "model name":
			model = strings.TrimSpace(v)
		}
	}
	pg := "PostgreSQL"
	if conn, err := pgx.Connect(ctx, c.admin); err == nil {
		var v string
		if conn.QueryRow(ctx, "SHOW server_version").Scan(&v) == nil {
			pg += " " + strings.Fields(v)[0]
		}
		conn.Close(ctx)
	}
	return fmt.Sprintf("%d CPUs (%s); feedbackd and %s pinned to CPU %s, this program (sockets and submissions) to CPU %s; %s; %s",
		cores, model, pg, c.serverCPU, c.clientCPU, runtime.Version(), time.Now().Format("2006-01-02 15:04"))
}
