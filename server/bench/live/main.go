// Command live measures the live stream (GET /api/v1/live) from outside:
// real feedbackd processes on a PostgreSQL database made for the run,
// pinned with PostgreSQL to one CPU, and this program — the sockets and
// the submissions — pinned to another. It runs four scenarios and
// prints one Markdown table:
//
//   - fan-out on one instance, then on three: 1,000 sockets, ten on each
//     of 100 workspaces, spread over the instances, while visitors submit
//     200 hygiene reports a second (round-robin over the workspaces and
//     the instances). The latency of a (socket, submission) pair runs
//     from the moment the POST was sent to the moment the socket read the
//     event, so it includes the commit; every delivery owed is accounted
//     for (missing, duplicated, or of another workspace).
//   - the worst case: 1,000 sockets on one workspace at 100 submissions a
//     second, one instance.
//   - idle sockets: 10,000 sockets dialled by 64 dialers on one instance,
//     the time to accept them all, and feedbackd's resident memory per
//     socket right after and after holding them 5 s.
//
// Run it from anywhere in the module:
//
//	go run ./server/bench/live -secs 20
//
// PostgreSQL is the server on FEEDBACK_BENCH_DATABASE_URL (default
// 127.0.0.1:5432, trust authentication) on this machine; the program
// creates a database and drops it on exit or Ctrl-C. It needs taskset
// (util-linux) and a hard RLIMIT_NOFILE above the idle sockets.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/feedbackhq/feedback/server/bench/outside"
)

// config is what the flags set.
type config struct {
	secs       int     // seconds of submissions per fan-out run
	rate       float64 // submissions per second, fan-out
	worstRate  float64 // submissions per second, worst case
	workspaces int
	sockets    int // sockets of a fan-out run
	idle       int // sockets of the idle run
	dialers    int
	warmup     time.Duration // submissions before the measured ones
	hold       time.Duration // how long the idle sockets are held
	drain      time.Duration // how long deliveries may trail the last POST
	scenarios  map[string]bool
	serverCPU  string
	clientCPU  string
	admin      string // the PostgreSQL server's URL
}

// scenarioNames are the scenarios, in the order they run.
var scenarioNames = []string{"fanout1", "fanout3", "worst", "idle"}

func main() {
	var c config
	flag.IntVar(&c.secs, "secs", 20, "seconds of submissions per fan-out and worst-case run")
	flag.Float64Var(&c.rate, "rate", 200, "submissions per second in the fan-out runs, over all workspaces")
	flag.Float64Var(&c.worstRate, "worst-rate", 100, "submissions per second in the worst case (one workspace)")
	flag.IntVar(&c.workspaces, "workspaces", 100, "workspaces of the fan-out runs")
	flag.IntVar(&c.sockets, "sockets", 1000, "sockets of the fan-out and worst-case runs")
	flag.IntVar(&c.idle, "idle", 10_000, "sockets of the idle run")
	flag.IntVar(&c.dialers, "dialers", 64, "concurrent dialers")
	flag.DurationVar(&c.warmup, "warmup", 2*time.Second, "submissions at the same rate before the measured ones, to warm the instances up")
	flag.DurationVar(&c.hold, "hold", 5*time.Second, "how long the idle sockets are held before memory is read again")
	flag.DurationVar(&c.drain, "drain", 10*time.Second, "how long deliveries may trail the last submission before they count as missing")
	only := flag.String("run", strings.Join(scenarioNames, ","), "scenarios to run, comma-separated: "+strings.Join(scenarioNames, ", "))
	flag.StringVar(&c.serverCPU, "server-cpu", "1", "CPU list of feedbackd and PostgreSQL")
	flag.StringVar(&c.clientCPU, "client-cpu", "0", "CPU list of this program (the load)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("live: ")
	c.admin = outside.AdminURL()
	c.scenarios = map[string]bool{}
	for _, s := range strings.Split(*only, ",") {
		c.scenarios[strings.TrimSpace(s)] = true
	}
	if err := c.check(); err != nil {
		log.Fatal(err)
	}
	if err := outside.Require("go", "taskset"); err != nil {
		log.Fatal(err)
	}
	if err := pinSelf(c.clientCPU); err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, c)              // tears down before it returns, also when interrupted
	interrupted := ctx.Err() != nil // before stop, which cancels ctx
	stop()
	if interrupted {
		err = errors.New("interrupted; the processes are stopped and the database dropped")
	}
	if err != nil {
		log.Fatal(err)
	}
}

// check rejects settings the scenarios cannot run with.
func (c *config) check() error {
	for s := range c.scenarios {
		if !slices.Contains(scenarioNames, s) {
			return errors.New("-run: unknown scenario " + s)
		}
	}
	if c.secs < 1 || c.rate <= 0 || c.worstRate <= 0 || c.workspaces < 1 || c.sockets < c.workspaces || c.idle < 1 || c.dialers < 1 {
		return errors.New("-secs, -rate, -worst-rate, -workspaces, -idle and -dialers must be positive, and -sockets at least -workspaces")
	}
	return nil
}
