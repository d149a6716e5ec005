//go:build js && wasm

package pwa

import (
	"context"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/browser"
	"github.com/feedbackhq/feedback/app/kiosk"
	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/app/visitor"
	"github.com/feedbackhq/feedback/shared/client"
)

// Start wires the browser half of the app before go-app runs it: one
// offline queue in IndexedDB, shared by the visitor pages (as their
// outbox) and the kiosk (as its device), flushed by its own loop on every
// trigger. It does nothing on the server.
func Start() {
	if !app.IsClient {
		return
	}
	dev := &device{}
	o := &outbox{watchers: map[int]func(){}}
	ready := make(chan struct{})
	go func() { // IndexedDB must not be waited on inside a JS callback
		ctx := context.Background()
		store, _ := browser.OpenStore(ctx)
		o.q = offline.New(store, offline.Over(client.DefaultTransport), offline.WithKioskCredential(dev.credential))
		o.q.Subscribe(func(offline.Stats) { o.refresh(ctx) })
		o.refresh(ctx)
		close(ready)
		browser.PersistStorage()
		o.q.Run(ctx, browser.Triggers(ctx))
	}()
	o.ready, dev.outbox = ready, o
	visitor.UseOutbox(o)
	kiosk.UseDevice(dev)
}

// outbox adapts the offline queue to what the pages ask of it, keeping a
// snapshot of the ids that wait and the ids that were refused.
type outbox struct {
	q     *offline.Queue
	ready chan struct{}

	mu       sync.Mutex
	pending  map[string]offline.Kind
	dead     map[string]offline.Kind
	refused  []visitor.Refusal // the visitor items of dead
	watchers map[int]func()
	next     int
}

// Submit stores a visitor submission and asks for a flush.
func (o *outbox) Submit(ctx context.Context, url, id string, body []byte) error {
	<-o.ready
	return o.q.Add(ctx, offline.Item{ID: id, Kind: offline.KindVisitor, URL: url, Body: body})
}

// State reports whether id waits, was refused, or is gone (sent).
func (o *outbox) State(id string) visitor.SendState {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.pending[id] != "":
		return visitor.Waiting
	case o.dead[id] != "":
		return visitor.Failed
	}
	return visitor.Sent
}

// Pending counts the submissions waiting on this device.
func (o *outbox) Pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.pending)
}

// Watch calls f after every change until cancel.
func (o *outbox) Watch(f func()) (cancel func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	id := o.next
	o.next++
	o.watchers[id] = f
	return func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		delete(o.watchers, id)
	}
}

// refresh reads the queue's lists into the snapshot and tells watchers.
func (o *outbox) refresh(ctx context.Context) {
	pending, err1 := o.q.Pending(ctx)
	dead, err2 := o.q.Dead(ctx)
	if err1 != nil || err2 != nil {
		return
	}
	o.mu.Lock()
	o.pending, o.dead, o.refused = kinds(pending), kinds(dead), refusals(dead)
	watchers := make([]func(), 0, len(o.watchers))
	for _, f := range o.watchers {
		watchers = append(watchers, f)
	}
	o.mu.Unlock()
	for _, f := range watchers {
		f()
	}
}

// Refused lists the visitor submissions the service refused.
func (o *outbox) Refused() []visitor.Refusal {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.refused
}

// Discard removes a refused submission for good, at the visitor's word.
func (o *outbox) Discard(ctx context.Context, id string) error {
	<-o.ready
	err := o.q.Discard(ctx, id)
	o.refresh(ctx)
	return err
}

func refusals(dead []offline.Item) []visitor.Refusal {
	var out []visitor.Refusal
	for _, it := range dead {
		if it.Kind == offline.KindVisitor {
			out = append(out, visitor.Refusal{ID: it.ID, Added: it.Added, Status: it.LastStatus, Reason: it.LastError})
		}
	}
	return out
}

func kinds(items []offline.Item) map[string]offline.Kind {
	m := make(map[string]offline.Kind, len(items))
	for _, it := range items {
		m[it.ID] = it.Kind
	}
	return m
}

// count returns how many items of kind wait and were refused.
func (o *outbox) count(kind offline.Kind) (pending, dead int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, k := range o.pending {
		if k == kind {
			pending++
		}
	}
	for _, k := range o.dead {
		if k == kind {
			dead++
		}
	}
	return pending, dead
}
