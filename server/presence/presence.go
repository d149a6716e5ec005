// Package presence runs the sweep that marks silent kiosks offline: every
// instance of feedbackd calls the store's MarkKiosksOffline when it
// starts and then every [Interval], and the store sees to it that each
// kiosk gets one kiosk.offline event per outage whichever instance
// sweeps (see [server.KioskStore]).
package presence

import (
	"context"
	"log/slog"
	"time"
)

// Interval is how often an instance sweeps: a kiosk is marked offline
// between three minutes (three missed heartbeats) and three minutes and
// Interval after its last heartbeat.
const Interval = 15 * time.Second

// Sweeper is what the sweep needs of the store.
type Sweeper interface {
	// MarkKiosksOffline marks offline the kiosks whose heartbeats
	// stopped, and returns how many it marked.
	MarkKiosksOffline(ctx context.Context) (int, error)
}

// Start sweeps at once and then every [Interval] in a goroutine, until
// ctx is done or the function it returns is called; that function waits
// for the goroutine to end. Failures are logged and the next tick tries
// again.
func Start(ctx context.Context, s Sweeper, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	t := time.NewTicker(Interval)
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, s, t.C, log)
	}()
	return func() {
		cancel()
		<-done
		t.Stop()
	}
}

// Run sweeps at once and then at each tick, until ctx is done.
func Run(ctx context.Context, s Sweeper, ticks <-chan time.Time, log *slog.Logger) {
	for {
		n, err := s.MarkKiosksOffline(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("marking silent kiosks offline", "err", err)
		case n > 0:
			log.Info("kiosks marked offline", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticks:
		}
	}
}
