package presence_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/presence"
)

// sweeper answers its calls with results in turn and reports each call
// on calls.
type sweeper struct {
	results []result
	calls   chan int // the index of each call, once it returned
	n       atomic.Int32
}

type result struct {
	n   int
	err error
}

func (s *sweeper) MarkKiosksOffline(ctx context.Context) (int, error) {
	i := int(s.n.Add(1)) - 1
	r := result{}
	if i < len(s.results) {
		r = s.results[i]
	}
	if s.calls != nil {
		defer func() { s.calls <- i }()
	}
	return r.n, r.err
}

// TestRun checks that Run sweeps at once and at each tick, logs what a
// sweep marked and what failed, goes on after a failure, and returns
// when its context is done.
func TestRun(t *testing.T) {
	s := &sweeper{calls: make(chan int), results: []result{
		{n: 0}, {err: errors.New("connection refused")}, {n: 2},
	}}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); presence.Run(ctx, s, ticks, log) }()
	for want := range 3 {
		if want > 0 {
			ticks <- time.Time{}
		}
		if got := <-s.calls; got != want {
			t.Fatalf("call %d, want %d", got, want)
		}
	}
	cancel()
	<-done
	out := logs.String()
	for _, want := range []string{`level=ERROR msg="marking silent kiosks offline" err="connection refused"`,
		`level=INFO msg="kiosks marked offline" count=2`} {
		if strings.Count(out, want) != 1 {
			t.Errorf("log %q, want one line with %q", out, want)
		}
	}
	if n := strings.Count(out, "\n"); n != 2 {
		t.Errorf("log %q has %d lines, want 2 (nothing for a sweep that marked none)", out, n)
	}
}

// TestStartStop checks that Start sweeps at once and that its stop
// function returns, the goroutine ended.
func TestStartStop(t *testing.T) {
	s := &sweeper{calls: make(chan int, 1)}
	stop := presence.Start(context.Background(), s, slog.New(slog.DiscardHandler))
	if got := <-s.calls; got != 0 {
		t.Errorf("first call %d, want 0", got)
	}
	stop() // returns once the goroutine has ended
}
