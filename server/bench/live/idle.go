package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/feedbackhq/feedback/server/bench/outside"
)

// idleGoal is the bound on the memory of an idle socket.
const idleGoal = 20.0 // KB

// quiet is how long a fresh instance is left alone before its memory is
// read: its start-up (migrations, caches, the first collections) is
// over by then.
const quiet = 2 * time.Second

// idle opens the idle sockets on one instance, spread over the
// workspaces, and reads feedbackd's resident memory before, right after
// the last live.ready and after holding them.
func (s *stage) idle(ctx context.Context) (row, error) {
	procs, err := s.start(1)
	if err != nil {
		return row{}, err
	}
	pid := procs[0].PID()
	if err := sleep(ctx, quiet); err != nil {
		return row{}, err
	}
	before, err := outside.StatusKB(pid, "VmRSS")
	if err != nil {
		return row{}, err
	}
	log.Printf("idle: dialling %d sockets with %d dialers", s.c.idle, s.c.dialers)
	cpu := startUsage(procs, s.Pinned)
	conns, accept, err := dialAll(ctx, s.c.idle, s.c.dialers, func(j int) (string, string) {
		return procs[0].Addr, s.tenants[j%len(s.tenants)].token
	})
	if err != nil {
		return row{}, err
	}
	defer closeAll(conns)
	used := cpu.cell()
	after, err := outside.StatusKB(pid, "VmRSS")
	if err != nil {
		return row{}, err
	}
	if err := sleep(ctx, s.c.hold); err != nil {
		return row{}, err
	}
	held, err := outside.StatusKB(pid, "VmRSS")
	if err != nil {
		return row{}, err
	}
	r := s.idleRow(accept, [3]int64{before, after, held})
	r.cpu = used + " while dialling"
	return r, nil
}

// idleRow is the idle run's line of the table; rss holds the resident
// memory before, right after and after the hold, in KB.
func (s *stage) idleRow(accept time.Duration, rss [3]int64) row {
	perSocket := func(kb int64) float64 { return float64(kb-rss[0]) / float64(s.c.idle) }
	mb := func(kb int64) string { return fmt.Sprintf("%.0f", float64(kb)/1024) }
	r := row{scenario: fmt.Sprintf("idle sockets, %d dialers", s.c.dialers), instances: 1, sockets: s.c.idle,
		load: "none", delivered: "—", accept: accept,
		memory: fmt.Sprintf("%.1f KB per socket, %.1f KB after %s (RSS %s → %s → %s MB)",
			perSocket(rss[1]), perSocket(rss[2]), s.c.hold, mb(rss[0]), mb(rss[1]), mb(rss[2]))}
	r.goal = verdict(fmt.Sprintf("< %.0f KB per socket", idleGoal), max(perSocket(rss[1]), perSocket(rss[2])) < idleGoal)
	return r
}
