package offline

import (
	"context"
	"time"
)

// Flush makes one pass over the queue, oldest item first, unless a rate
// limit is still in force. It stops at the first 5xx, network error, 429
// or 401, keeps the items it could not deliver and schedules the next try
// (see [Stats.NextTry]). An explicit Flush does not wait for the backoff:
// [Queue.Run] calls it on triggers such as the browser coming back online.
// Delivery failures are reported in the [Report] and in [Queue.Stats], not
// as errors; the error is a storage failure or the end of ctx.
func (q *Queue) Flush(ctx context.Context) (Report, error) {
	select {
	case q.flushing <- struct{}{}:
	case <-ctx.Done():
		return Report{}, ctx.Err()
	}
	defer func() { <-q.flushing }()
	p := &pass{q: q, ctx: ctx}
	err := p.run()
	q.finish(p, err)
	q.notify(ctx)
	return p.rep, err
}

// pass is the state of one flush.
type pass struct {
	q   *Queue
	ctx context.Context
	rep Report

	skipped   bool      // a rate limit was in force: nothing was tried
	stop      bool      // a failure ends the pass
	failed    string    // why the pass failed, asking for a backoff
	reset     time.Time // when a 429's rate limit ends
	kioskSeen bool      // kiosk items were pending
	kioskLeft int       // kiosk items still waiting, reported with each sync
	noKiosk   bool      // hold kiosk items back: no credential
	unpaired  bool
}

func (p *pass) run() error {
	if p.q.rateLimited() {
		p.skipped = true
		return nil
	}
	items, err := p.q.store.List(p.ctx)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.Kind == KindKiosk {
			p.kioskLeft++
		}
	}
	taken := make([]bool, len(items))
	for i := range items {
		if taken[i] || items[i].Kind == KindKiosk && p.noKiosk {
			continue
		}
		if items[i].Kind == KindKiosk {
			err = p.kiosk(p.batchFrom(items, taken, i))
		} else {
			taken[i] = true
			err = p.visitor(items[i])
		}
		if err != nil || p.stop {
			return err
		}
		p.q.notify(p.ctx)
	}
	return nil
}

// rateLimited reports whether a 429's wait is still in force.
func (q *Queue) rateLimited() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.limited && q.now().Before(q.nextTry)
}

// visitor sends one visitor item to its URL.
func (p *pass) visitor(it Item) error {
	headers := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
	res, err := p.q.sender.Send(p.ctx, "POST", it.URL, headers, it.Body)
	p.rep.Requests++
	if err != nil {
		if p.ctx.Err() != nil {
			return p.ctx.Err()
		}
		return p.apply([]Item{it}, retry, 0, "network error: "+err.Error(), time.Time{})
	}
	code, detail := problemOf(res.Status, res.Body)
	return p.apply([]Item{it}, classify(res.Status, code), res.Status, detail, res.Reset)
}

// verdict is what an answer means for an item.
type verdict int

const (
	remove verdict = iota // the service has it
	dead                  // rejected for good: dead letter
	retry                 // keep and back off
	wait                  // keep until the rate limit resets
)

// classify maps the status (and problem code) of an answer to a verdict.
func classify(status int, code string) verdict {
	switch {
	case status >= 200 && status < 300:
		return remove
	case status == 409 && (code == "" || code == idempotencyConflict):
		return remove // the service stored this id with another body
	case status == 429:
		return wait
	case status == 408 || status >= 500 || status < 400:
		return retry
	default:
		return dead
	}
}

// apply records one verdict for items, all answered with status.
func (p *pass) apply(items []Item, v verdict, status int, detail string, reset time.Time) error {
	for _, it := range items {
		var err error
		it.Attempts++
		it.LastStatus, it.LastError = status, detail
		if (v == remove || v == dead) && it.Kind == KindKiosk {
			p.kioskLeft--
		}
		switch v {
		case remove:
			err = p.q.store.Delete(p.ctx, it.ID)
			p.rep.Removed++
		case dead:
			if err = p.q.store.PutDead(p.ctx, it); err == nil {
				err = p.q.store.Delete(p.ctx, it.ID)
			}
			p.rep.Dead++
		default:
			err = p.q.store.Put(p.ctx, it)
			p.rep.Kept++
		}
		if err != nil {
			return err
		}
	}
	switch v {
	case retry:
		p.fail(detail)
	case wait:
		p.limit(reset, detail)
	}
	return nil
}

// fail ends the pass and asks for a backoff.
func (p *pass) fail(detail string) {
	p.stop = true
	if p.failed == "" {
		p.failed = detail
	}
}

// limit ends the pass until reset, or backs off if reset says nothing.
func (p *pass) limit(reset time.Time, detail string) {
	now := p.q.now()
	if !reset.After(now) {
		p.fail(detail)
		return
	}
	p.stop = true
	p.failed = detail
	p.reset = reset
	if limit := now.Add(MaxRateLimitWait); reset.After(limit) {
		p.reset = limit
	}
}

// finish records the outcome of p in the queue's state.
func (q *Queue) finish(p *pass, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if p.skipped || err != nil && p.ctx.Err() != nil {
		p.rep.NextTry = q.nextTry
		return
	}
	if p.kioskSeen {
		q.unpaired = p.unpaired
	}
	q.limited = false
	switch {
	case err != nil:
		q.backoff("storage: " + err.Error())
	case !p.reset.IsZero():
		q.nextTry, q.limited, q.lastErr = p.reset, true, p.failed
	case p.failed != "":
		q.backoff(p.failed)
	default:
		q.failures, q.nextTry, q.lastErr = 0, time.Time{}, ""
	}
	p.rep.NextTry, p.rep.Unpaired = q.nextTry, p.unpaired
}

// backoff schedules the next try after one more failed pass; q.mu is held.
func (q *Queue) backoff(why string) {
	q.failures++
	q.nextTry = q.now().Add(Backoff(q.failures, q.rand()))
	q.lastErr = why
}
