// Package rollup keeps the hourly statistics: every instance of
// feedbackd runs a [Worker], which adds a workspace's new submissions to
// its counters shortly after this instance commits them (Wake, from the
// store's OnEvent hook, gathering a burst into one batch) and polls for
// the commits of other instances every [PollInterval]. The store counts
// each event once, whichever instances run (see server.StatsStore), and
// its reads add the events not rolled up yet, so the worker's pace
// changes what a read costs, never what it returns.
package rollup

import (
	"context"
	"log/slog"
	"time"

	"github.com/feedbackhq/feedback/server/internal/wake"
)

// PollInterval is how often a worker rolls up every workspace with new
// events, for the commits of other instances.
const PollInterval = 2 * time.Second

// Gather is how long a worker waits after a wake-up before it rolls up,
// so that a burst of submissions is one batch.
const Gather = 250 * time.Millisecond

// Store is what the worker needs of the store.
type Store interface {
	// StatsWorkspaces returns the workspaces with events to roll up.
	StatsWorkspaces(ctx context.Context) ([]string, error)
	// RollupStats rolls up a workspace's new events.
	RollupStats(ctx context.Context, workspaceID string) (int, error)
}

// Worker rolls up the statistics; make one with [Start].
type Worker struct {
	store Store
	log   *slog.Logger
	woken *wake.Set // the workspaces woken since the last pass
}

// Start runs a worker on store in a goroutine until ctx is done or the
// returned stop is called (which waits for it); wire its Wake to the
// store's OnEvent hook.
func Start(ctx context.Context, store Store, log *slog.Logger) (w *Worker, stop func()) {
	w = &Worker{store: store, log: log, woken: wake.New()}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	poll := time.NewTicker(PollInterval)
	go func() {
		defer close(done)
		w.run(ctx, poll.C)
	}()
	return w, func() {
		cancel()
		<-done
		poll.Stop()
	}
}

// Wake asks the worker to roll up the workspace soon; it never blocks.
func (w *Worker) Wake(workspaceID string) { w.woken.Add(workspaceID) }

// run polls at once, then rolls up the workspaces woken Gather after
// the first wake-up since the last such pass (so under steady load one
// pass every Gather), and every workspace behind on each poll tick,
// until ctx is done. Failures are logged and retried at the next tick.
func (w *Worker) run(ctx context.Context, poll <-chan time.Time) {
	w.poll(ctx)
	gather := time.NewTimer(0)
	<-gather.C
	armed := false // the timer runs: a wake-up does not push it back, or steady load would starve it
	for {
		select {
		case <-ctx.Done():
			gather.Stop()
			return
		case <-w.woken.C():
			if !armed {
				gather.Reset(Gather)
				armed = true
			}
		case <-gather.C:
			armed = false
			w.rollup(ctx, w.woken.Take())
		case <-poll:
			w.poll(ctx)
		}
	}
}

// poll rolls up every workspace with new events.
func (w *Worker) poll(ctx context.Context) {
	ids, err := w.store.StatsWorkspaces(ctx)
	if err != nil {
		w.logError(ctx, "listing the workspaces to roll up", err)
		return
	}
	w.rollup(ctx, ids)
}

// rollup rolls up each workspace of ids.
func (w *Worker) rollup(ctx context.Context, ids []string) {
	for _, id := range ids {
		if _, err := w.store.RollupStats(ctx, id); err != nil {
			w.logError(ctx, "rolling up statistics", err, "workspace", id)
		}
	}
}

// logError logs err unless ctx is done (then the error is the shutdown).
func (w *Worker) logError(ctx context.Context, msg string, err error, args ...any) {
	if ctx.Err() == nil {
		w.log.Error(msg, append(args, "err", err)...)
	}
}
