package main

import (
	"context"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/server/bench/outside"
)

// fanout is one fan-out run's settings.
type fanout struct {
	name      string
	instances int
	tenants   []tenant
	sockets   int
	rate      float64       // submissions per second, over all workspaces
	goal      time.Duration // the p99 to stay under; 0: reported only
}

// settle is how long the sockets are left alone after their dial, so
// that the burst of accepts is over before the clock runs.
const settle = time.Second

// fanout runs f: it starts the instances, opens the sockets (socket j
// on workspace j mod W and instance j mod I, so each workspace's
// sockets are spread over the instances), reads them while the
// submissions go out, and accounts for every delivery.
func (s *stage) fanout(ctx context.Context, f fanout) (row, error) {
	procs, err := s.start(f.instances)
	if err != nil {
		return row{}, err
	}
	addrs := make([]string, len(procs))
	for i, p := range procs {
		addrs[i] = p.Addr
	}
	log.Printf("%s: dialling %d sockets", f.name, f.sockets)
	conns, accept, err := dialAll(ctx, f.sockets, s.c.dialers, func(j int) (string, string) {
		return addrs[j%len(addrs)], f.tenants[j%len(f.tenants)].token
	})
	if err != nil {
		return row{}, err
	}
	m := newMeter(int(f.rate*s.c.warmup.Seconds()), int(f.rate*float64(s.c.secs)), len(f.tenants))
	socks, perTenant := make([]*sock, len(conns)), make([]int, len(f.tenants))
	var readers sync.WaitGroup
	for j, c := range conns {
		socks[j] = &sock{c: c, tenant: j % len(f.tenants), seen: newBitset(len(m.ids))}
		perTenant[socks[j].tenant]++
		readers.Go(func() { socks[j].read(m) })
	}
	stopReading := sync.OnceFunc(func() { m.closing.Store(true); closeAll(conns); readers.Wait() })
	defer stopReading()
	if err := sleep(ctx, settle); err != nil {
		return row{}, err
	}
	log.Printf("%s: %d submissions at %.0f/s, the first %d to warm up", f.name, len(m.ids), f.rate, m.warm)
	cpu := startUsage(procs, s.Pinned)
	if err := m.submit(ctx, addrs, f.tenants, f.rate); err != nil {
		return row{}, err
	}
	m.drain(ctx, m.expected(perTenant), s.c.drain)
	used, rss := cpu.cell(), residentKB(procs)
	stopReading()
	r := f.row(m.settle(socks), m, accept, rss)
	r.cpu = used
	return r, ctx.Err()
}

// row is f's line of the table.
func (f fanout) row(a account, m *meter, accept time.Duration, rssKB int64) row {
	r := row{scenario: f.name, instances: f.instances, sockets: f.sockets,
		load:      fmt.Sprintf("%.0f/s (%s in %.1f s)", f.rate, thousands(len(m.ids)-m.warm), m.took.Seconds()),
		delivered: a.cell(), lat: summarize(a.lat), accept: accept,
		memory: fmt.Sprintf("%.0f MB after the run", float64(rssKB)/1024)}
	if f.instances > 1 {
		r.memory = fmt.Sprintf("%.0f MB on %d instances after the run", float64(rssKB)/1024, f.instances)
	}
	r.goal = "report"
	if f.goal > 0 {
		r.goal = verdict(fmt.Sprintf("p99 < %s", f.goal), r.lat.p99 < f.goal && a.complete())
		if !a.complete() {
			r.goal += " (deliveries incomplete)"
		}
	}
	return r
}

// residentKB sums the instances' resident memory.
func residentKB(procs []*outside.Proc) int64 {
	var kb int64
	for _, p := range procs {
		n, err := outside.StatusKB(p.PID(), "VmRSS")
		if err != nil {
			log.Printf("%s: %v", p.Name, err)
		}
		kb += n
	}
	return kb
}

// verdict writes a goal and whether it was met.
func verdict(goal string, met bool) string {
	if met {
		return goal + ": met"
	}
	return goal + ": NOT met"
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
