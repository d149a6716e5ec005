package webhook

import (
	"context"
	"time"
)

// record writes finished attempts and released leases in batches: each
// batch is what gathered while the previous one was being written, so a
// quiet dispatcher records an attempt at once and a busy one records
// hundreds per transaction. After stop is closed it writes what is left
// and returns.
func (d *Dispatcher) record(stop <-chan struct{}) {
	for {
		select {
		case <-d.flush:
			d.recordBatch()
		case <-stop:
			d.recordBatch()
			return
		}
	}
}

// recordBatch writes the attempts and releases gathered so far, then
// frees their room and wakes the claim loop.
func (d *Dispatcher) recordBatch() {
	d.mu.Lock()
	done, release := d.book.done, d.book.release
	d.book.done, d.book.release = nil, nil
	d.mu.Unlock()
	if len(done)+len(release) == 0 {
		return
	}
	// Record even when Run's ctx has ended: the attempts happened.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lost, err := d.Queue.FinishAttempts(ctx, d.id, done, release)
	switch {
	case err != nil:
		d.Log.Error("webhook: recording attempts", "attempts", len(done), "err", err)
	case len(lost) > 0:
		d.Log.Warn("webhook: leases lost before the attempts were recorded", "deliveries", lost)
	}
	d.mu.Lock()
	d.book.held -= len(done) + len(release)
	d.mu.Unlock()
	signal(d.wake) // room to refill, no news

}
