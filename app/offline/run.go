package offline

import (
	"context"
	"time"
)

// Run flushes the queue until ctx ends: at once, on every value from
// trigger (the browser's online and visible events; nil or closed is
// fine), after every [Queue.Add] and [Queue.Requeue], when a scheduled
// retry is due, and every [PollInterval] when none is scheduled. Run it
// in its own goroutine, once per queue.
func (q *Queue) Run(ctx context.Context, trigger <-chan struct{}) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-trigger:
			if !ok {
				trigger = nil
				continue
			}
		case <-q.kick:
		case <-timer.C:
		}
		_, _ = q.Flush(ctx) // failures are in Stats and schedule the retry
		timer.Reset(q.wait())
	}
}

// wait returns how long Run waits for the next pass without a trigger.
func (q *Queue) wait() time.Duration {
	q.mu.Lock()
	next := q.nextTry
	q.mu.Unlock()
	if next.IsZero() {
		return PollInterval
	}
	return max(0, next.Sub(q.now()))
}
