package webhook

import (
	"net/url"
	"strings"

	"github.com/feedbackhq/feedback/server"
)

// claimAhead is how many rounds of a subscription's attempts a
// dispatcher claims at once: it leases up to claimAhead×PerWebhook of
// a subscription's deliveries and sends PerWebhook of them at a time,
// so that one claim and one record serve many attempts.
const claimAhead = 8

// book is what a dispatcher holds: guarded by Dispatcher.mu.
type book struct {
	held    int                 // deliveries claimed and not yet recorded or released
	running int                 // attempts in flight
	subs    map[[2]string]*line // per subscription (workspace id, webhook id)
	hosts   map[string]int      // deliveries held per destination host
	subHost map[string]string   // the host of each subscription seen, for Claim.Skip
	done    []server.Finished   // attempts waiting to be recorded
	release []*server.Delivery  // leases to end without an attempt
}

// line is a subscription's attempts in flight and deliveries waiting.
type line struct {
	running int
	waiting []*server.Delivery
}

// room returns how many more deliveries the dispatcher may claim.
func (d *Dispatcher) room() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return max(min(d.Concurrency-d.book.running, claimAhead*d.Concurrency-d.book.held), 0)
}

// idleNow reports whether the dispatcher holds no delivery.
func (d *Dispatcher) idleNow() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.book.held == 0
}

// skip returns the subscriptions whose host is at its cap, as far as
// the dispatcher has seen them.
func (d *Dispatcher) skip() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	full := false
	for _, n := range d.book.hosts {
		full = full || n >= d.PerHost
	}
	if !full {
		return nil
	}
	var ids []string
	for id, h := range d.book.subHost {
		if d.book.hosts[h] >= d.PerHost {
			ids = append(ids, id)
		}
	}
	return ids
}

// admit takes claimed deliveries in hand and returns those to attempt
// now; the others wait for their subscription's attempts in flight. A
// delivery whose host has PerHost attempts in flight (of a subscription
// the claim did not know to skip) has its lease released with the next
// record.
func (d *Dispatcher) admit(claimed []server.Delivery) []*server.Delivery {
	d.mu.Lock()
	defer d.mu.Unlock()
	var start []*server.Delivery
	for i := range claimed {
		del := &claimed[i]
		h := hostOf(del.URL)
		d.book.subHost[del.WebhookID] = h
		d.book.held++
		l := d.line(del)
		switch {
		case d.book.hosts[h] >= d.PerHost:
			d.book.release = append(d.book.release, del)
			signal(d.flush)
		case l.running >= d.PerWebhook:
			l.waiting = append(l.waiting, del)
		default:
			l.running++
			d.book.running++
			d.book.hosts[h]++
			start = append(start, del)
		}
	}
	return start
}

// line returns the line of del's subscription.
func (d *Dispatcher) line(del *server.Delivery) *line {
	k := [2]string{del.WorkspaceID, del.WebhookID}
	l := d.book.subs[k]
	if l == nil {
		l = &line{}
		d.book.subs[k] = l
	}
	return l
}

// finished hands f to the recorder (or, without an attempt, del's lease
// to release) and returns the subscription's next waiting delivery, to
// attempt in the same slot, or nil when its line is empty.
func (d *Dispatcher) finished(del *server.Delivery, f *server.Finished) *server.Delivery {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f != nil {
		d.book.done = append(d.book.done, *f)
	} else {
		d.book.release = append(d.book.release, del)
	}
	signal(d.flush)
	d.book.hosts[hostOf(del.URL)]--
	l := d.line(del)
	if len(l.waiting) > 0 {
		next := l.waiting[0]
		l.waiting = l.waiting[1:]
		d.book.hosts[hostOf(next.URL)]++ // the slot passes on
		return next
	}
	if h := hostOf(del.URL); d.book.hosts[h] <= 0 {
		delete(d.book.hosts, h)
	}
	l.running--
	d.book.running--
	if l.running == 0 {
		delete(d.book.subs, [2]string{del.WorkspaceID, del.WebhookID})
	}
	return nil
}

// fresh reports whether more than half of del's lease is left, enough
// for an attempt and its record.
func (d *Dispatcher) fresh(del *server.Delivery) bool {
	return del.LeaseUntil.Sub(d.Now()) > d.Lease/2
}

// hostOf returns the lower-case host name of a URL, or the URL itself
// if it does not parse (it always does: it was checked when saved).
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return strings.ToLower(u.Hostname())
}
