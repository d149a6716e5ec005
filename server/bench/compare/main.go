// Command compare measures feedbackd against its physical limit from
// outside, the way the issue that asked for it measured the peers: a
// real feedbackd process and the bare handler (server/bench/bare, only
// the essential SQL) on the same database, both and the database pinned
// to CPU 1, wrk pinned to CPU 0, each load run against one and then the
// other, the whole set repeated; it prints medians with ranges.
//
//	go run ./server/bench/compare -store postgres -secs 10 -reps 3
//
// PostgreSQL is the server on FEEDBACK_BENCH_DATABASE_URL (default
// 127.0.0.1:5432, trust auth); compare creates a database and drops it.
// It needs wrk and taskset (util-linux).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"

	"github.com/feedbackhq/feedback/server/bench/outside"
)

// config is what the flags set.
type config struct {
	store string
	secs  int
	reps  int
	rows  int
	admin string // the PostgreSQL server's URL
	cpus  [2]string
	hold  bool // set the stage, print it and wait instead of measuring
}

func main() {
	var c config
	flag.StringVar(&c.store, "store", "postgres", "postgres or sqlite")
	flag.IntVar(&c.secs, "secs", 10, "seconds per load run")
	flag.IntVar(&c.reps, "reps", 3, "repetitions of the whole set, interleaved")
	flag.IntVar(&c.rows, "rows", 1_000_000, "submissions seeded before the list runs")
	server := flag.String("server-cpu", "1", "CPU list of feedbackd, the bare handler and PostgreSQL")
	client := flag.String("client-cpu", "0", "CPU list of wrk")
	flag.BoolVar(&c.hold, "hold", false, "set the stage, print its addresses and wait for Ctrl-C (feedbackd serves profiles on 127.0.0.1:6060)")
	flag.Parse()
	c.cpus = [2]string{*server, *client}
	c.admin = outside.AdminURL()
	log.SetFlags(0)
	log.SetPrefix("compare: ")
	if err := run(context.Background(), c); err != nil {
		log.Fatal(err)
	}
}

// run sets the stage, runs every scenario reps times and prints the table.
func run(ctx context.Context, c config) error {
	if err := outside.Require("go", "wrk", "taskset"); err != nil {
		return err
	}
	st, err := setUp(ctx, c)
	if err != nil {
		return err
	}
	defer st.Close()
	if c.hold {
		return st.hold(ctx)
	}
	results := map[string][]measure{}
	exports := map[string][]exportRun{}
	for rep := range c.reps {
		for _, sc := range scenarios(c, st) {
			for _, t := range st.targets(rep) {
				if err := st.quiesce(ctx); err != nil {
					return err
				}
				m, err := st.load(ctx, sc, t)
				if err != nil {
					return fmt.Errorf("%s on %s: %w", sc.name, t.name, err)
				}
				log.Printf("rep %d: %-44s %-9s %8.0f req/s  p50 %-9s p99 %s", rep+1, sc.name, t.name, m.rps, m.p50, m.p99)
				results[sc.name+"\x00"+t.name] = append(results[sc.name+"\x00"+t.name], m)
			}
		}
		if err := st.exports(ctx, rep, exports); err != nil {
			return err
		}
	}
	printTable(os.Stdout, c, scenarios(c, st), results)
	printExports(os.Stdout, exports)
	fmt.Printf("\nfeedbackd memory: %s idle before the runs, %s peak (VmHWM)\n", st.idleRSS, strings.TrimSpace(st.peakRSS()))
	return nil
}

// hold prints what a profiling session needs and waits for an interrupt.
func (s *stage) hold(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	fmt.Printf("feedbackd %s (profiles on http://127.0.0.1:6060/debug/pprof/)\nbare      %s\n", s.feedback.base, s.bare.base)
	fmt.Printf("token     %s\nposter    /q/%s\ndatabase  %s\n", s.token, s.code, s.dsn)
	<-ctx.Done()
	return nil
}
