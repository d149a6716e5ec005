package webhook

import (
	"net/url"
	"strings"

	"github.com/feedbackhq/feedback/server"
)

// book is what a dispatcher holds: guarded by Dispatcher.mu.
type book struct {
	held    int               // deliveries claimed and not yet recorded
	hosts   map[string]int    // attempts in flight per destination host
	subHost map[string]string // the host of each subscription seen, for Claim.Skip
	done    []server.Finished // attempts waiting to be recorded
	release []*server.Delivery
}

// room returns how many more deliveries the dispatcher may claim.
func (d *Dispatcher) room() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return max(d.Concurrency-d.book.held, 0)
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
// now; a delivery whose host is at its cap (a subscription the claim did
// not know to skip) has its lease released with the next record.
func (d *Dispatcher) admit(claimed []server.Delivery) []*server.Delivery {
	d.mu.Lock()
	defer d.mu.Unlock()
	var start []*server.Delivery
	for i := range claimed {
		del := &claimed[i]
		h := hostOf(del.URL)
		d.book.subHost[del.WebhookID] = h
		d.book.held++
		if d.book.hosts[h] >= d.PerHost {
			d.book.release = append(d.book.release, del)
			signal(d.flush)
			continue
		}
		d.book.hosts[h]++
		start = append(start, del)
	}
	return start
}

// finished hands an attempt to the recorder and frees its host's slot.
func (d *Dispatcher) finished(f server.Finished) {
	d.mu.Lock()
	h := hostOf(f.Delivery.URL)
	if d.book.hosts[h]--; d.book.hosts[h] <= 0 {
		delete(d.book.hosts, h)
	}
	d.book.done = append(d.book.done, f)
	d.mu.Unlock()
	signal(d.flush)
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
