package live

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// feed reads one workspace's new events and offers them to its live
// subscribers. One goroutine reads; mu guards last and subs, so that a
// subscriber joins between two fan-outs.
type feed struct {
	hub    *Hub
	ws     string
	wake   chan struct{}
	ready  chan struct{} // closed when last is known (or err set)
	err    error
	ctx    context.Context
	cancel context.CancelFunc
	refs   int // guarded by hub.mu

	mu   sync.Mutex
	last int64 // every event up to last was offered to the subscribers
	subs map[*Sub]struct{}
}

// newFeed returns a feed of the workspace, not yet started.
func newFeed(h *Hub, ws string) *feed {
	f := &feed{hub: h, ws: ws, wake: make(chan struct{}, 1), ready: make(chan struct{}),
		subs: map[*Sub]struct{}{}}
	f.ctx, f.cancel = context.WithCancel(h.ctx)
	return f
}

// init reads the workspace's position and starts the feed's reader.
// On failure the feed leaves the hub, so that the next Join tries again.
func (f *feed) init(ctx context.Context) {
	defer close(f.ready)
	f.last, f.err = f.hub.Source.EventPosition(ctx, f.ws)
	if f.err != nil {
		f.hub.mu.Lock()
		if f.hub.feeds[f.ws] == f {
			delete(f.hub.feeds, f.ws)
		}
		f.hub.mu.Unlock()
		return
	}
	go f.run()
}

// run reads new events at every wake-up and every poll until the feed
// stops.
func (f *feed) run() {
	t := time.NewTicker(f.hub.poll())
	defer t.Stop()
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-f.wake:
		case <-t.C:
			if !f.behind(f.ctx) {
				continue
			}
		}
		if err := f.pull(f.ctx); err != nil && f.ctx.Err() == nil {
			f.hub.Log.Warn("live: read events", "workspace_id", f.ws, "err", err)
		}
	}
}

// behind reports whether the database holds events the feed has not
// offered: a poll's one cheap read (an error counts as behind, so that
// pull reports it).
func (f *feed) behind(ctx context.Context) bool {
	pos, err := f.hub.Source.EventPosition(ctx, f.ws)
	f.mu.Lock()
	defer f.mu.Unlock()
	return err != nil || pos > f.last
}

// pull offers every event after last, page by page.
func (f *feed) pull(ctx context.Context) error {
	for {
		f.mu.Lock()
		after := f.last
		f.mu.Unlock()
		evs, err := f.hub.Source.Events(ctx, f.ws, after, readBatch)
		if err != nil {
			return err
		}
		msgs := make([]message, 0, len(evs))
		for _, e := range evs {
			m, err := encode(e)
			if err != nil {
				return err
			}
			msgs = append(msgs, m)
		}
		f.mu.Lock()
		for _, m := range msgs {
			if m.seq <= f.last {
				continue
			}
			for s := range f.subs {
				s.offer(m)
			}
			f.last = m.seq
		}
		f.mu.Unlock()
		if len(evs) < readBatch {
			return nil
		}
	}
}

// message is an event as a subscriber receives it: encoded once for
// all, with what filters look at.
type message struct {
	seq        int64
	typ        string
	locationID string
	data       []byte
}

// encode returns e's message: the envelope of GET /api/v1/events.
func encode(e feedback.Event) (message, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return message{}, err
	}
	var loc struct {
		LocationID string `json:"location_id"`
	}
	_ = json.Unmarshal(e.Data, &loc) // data without a location has none
	return message{seq: e.Seq, typ: e.Type, locationID: loc.LocationID, data: b}, nil
}
