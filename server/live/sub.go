package live

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// WebSocket close codes a subscription ends with.
const (
	StatusGoingAway       = 1001 // the server shuts down: resume elsewhere with after=
	StatusPolicyViolation = 1008 // the credentials were revoked: do not resume
	StatusTryAgainLater   = 1013 // the subscriber fell behind: resume with after=
)

// Filter selects the events a subscriber receives; its zero value
// selects all.
type Filter struct {
	Types      map[string]bool // empty: every type
	LocationID string          // empty: every location
}

// match reports whether m passes the filter.
func (f Filter) match(m message) bool {
	return (len(f.Types) == 0 || f.Types[m.typ]) && (f.LocationID == "" || f.LocationID == m.locationID)
}

// Credential is what a subscription was opened with: Key names it
// (subscriptions of one key are checked once), Check reports whether it
// still holds — false ends them with StatusPolicyViolation; an error
// (the database is unreachable) keeps them until the next check.
type Credential struct {
	Key   string
	Check func(ctx context.Context) (bool, error)
}

// Sub is one subscription to a workspace's events.
type Sub struct {
	feed   *feed
	filter Filter
	cred   Credential
	limit  int           // the most messages queued before it is dropped
	ready  chan struct{} // signalled when queue is no longer empty

	pos   int64    // guarded by feed.mu: the largest seq offered or replayed
	live  bool     // guarded by feed.mu
	queue [][]byte // guarded by feed.mu: encoded events not yet taken

	once   sync.Once
	done   chan struct{}
	code   int
	reason string
	wake   func() // see OnWake
}

// Join subscribes to the workspace's events. The subscription receives
// nothing until Start.
func (h *Hub) Join(ctx context.Context, workspaceID string, filter Filter, cred Credential) (*Sub, error) {
	f, err := h.feedOf(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	s := &Sub{feed: f, filter: filter, cred: cred, limit: h.buffer() + readBatch,
		ready: make(chan struct{}, 1), done: make(chan struct{})}
	f.mu.Lock()
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed { // Close ran between feedOf and here, and did not see s
		s.kick(StatusGoingAway, "the server is shutting down")
	}
	return s, nil
}

// Leave ends the subscription.
func (s *Sub) Leave() {
	s.kick(StatusGoingAway, "")
	f := s.feed
	f.mu.Lock()
	delete(f.subs, s)
	f.mu.Unlock()
	f.hub.release(f)
	f.hub.open.Done()
}

// OnWake sets fn to be called whenever messages are queued for Take or
// the subscription ends, so that a socket needs no goroutine of its own
// to wait for them. fn is called with the feed's lock held: it must not
// block nor call the Sub's methods. Set it before Start.
func (s *Sub) OnWake(fn func()) { s.wake = fn }

// Pending reports whether Take has messages.
func (s *Sub) Pending() bool {
	f := s.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(s.queue) > 0
}

// Ready is signalled when Take has messages for a live subscription.
func (s *Sub) Ready() <-chan struct{} { return s.ready }

// Take returns the encoded events queued since the last Take, in seq
// order. The queue grows only while the subscriber is behind, so an
// idle one holds no buffer.
func (s *Sub) Take() [][]byte {
	f := s.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	q := s.queue
	s.queue = nil
	return q
}

// Done is closed when the hub ends the subscription; Reason tells why.
func (s *Sub) Done() <-chan struct{} { return s.done }

// Reason returns the close code and text of an ended subscription.
func (s *Sub) Reason() (int, string) {
	<-s.done
	return s.code, s.reason
}

// kick ends the subscription with code, once.
func (s *Sub) kick(code int, reason string) {
	s.once.Do(func() {
		s.code, s.reason = code, reason
		close(s.done)
		if s.wake != nil {
			s.wake()
		}
	})
}

// offer queues m for a live subscriber that has not seen it; a full
// buffer ends the subscription. The caller holds feed.mu.
func (s *Sub) offer(m message) {
	if !s.live || m.seq <= s.pos {
		return
	}
	s.pos = m.seq
	if !s.filter.match(m) {
		return
	}
	if len(s.queue) == s.limit {
		s.live, s.queue = false, nil
		s.kick(StatusTryAgainLater, "the client fell behind; resume with after=")
		return
	}
	s.queue = append(s.queue, m.data)
	signal(s.ready)
	if s.wake != nil {
		s.wake()
	}
}

// Start positions the subscription and sends, through send, the events
// to replay and then live.ready (preceded by live.reset when after
// cannot be served). Without after, the stream starts at the current
// position: after every event committed before the call (or, when a
// transaction elsewhere in the database has run for more than 2 s, after
// those that no such transaction can still precede: the others come as
// live events — sent late, never lost). After Start, Ready and Take give the live events.
func (s *Sub) Start(ctx context.Context, after *int64, send func([]byte) error) error {
	if after == nil {
		cur, err := s.feed.hub.Source.EventPosition(ctx, s.feed.ws)
		if err != nil {
			return err
		}
		return s.announce(send, s.goLive(cur), false)
	}
	if reset, err := s.ahead(ctx, *after); err != nil || reset {
		if err != nil {
			return err
		}
		return s.announce(send, s.goLive(-1), true)
	}
	pos, err := s.replay(ctx, *after, send)
	if err != nil {
		return err
	}
	return s.announce(send, pos, pos < 0)
}

// ahead reports whether after lies beyond every event committed so far
// (a position from another database, or made up): such a subscriber
// would wait for events it will never see.
func (s *Sub) ahead(ctx context.Context, after int64) (bool, error) {
	f := s.feed
	f.mu.Lock()
	last := f.last
	f.mu.Unlock()
	if after <= last {
		return false, nil
	}
	cur, err := f.hub.Source.EventPosition(ctx, f.ws)
	return after > cur, err
}

// replay sends the events after pos until it has caught up with the
// feed, then joins it. It returns the position it joined at, or, after
// more than MaxReplay events, joins at the feed's position and returns
// -1 (a reset).
func (s *Sub) replay(ctx context.Context, pos int64, send func([]byte) error) (int64, error) {
	f := s.feed
	replayed, empty := 0, 0
	for {
		if at, ok := s.tryLive(pos); ok {
			return at, nil
		}
		evs, err := f.hub.Source.Events(ctx, f.ws, pos, readBatch)
		if err != nil {
			return 0, err
		}
		if len(evs) == 0 {
			if empty++; empty > 3 {
				return 0, fmt.Errorf("live: replay of workspace %s cannot reach the feed's position", f.ws)
			}
			continue
		}
		if replayed += len(evs); replayed > f.hub.maxReplay() {
			s.goLive(-1)
			return -1, nil
		}
		for _, e := range evs {
			m, err := encode(e)
			if err != nil {
				return 0, err
			}
			if s.filter.match(m) {
				if err := send(m.data); err != nil {
					return 0, err
				}
			}
			pos = m.seq
		}
	}
}

// tryLive joins the feed at pos when the feed has offered nothing after
// it, and reports whether it did.
func (s *Sub) tryLive(pos int64) (int64, bool) {
	f := s.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.last > pos {
		return 0, false
	}
	s.pos, s.live = pos, true
	return pos, true
}

// goLive joins the feed at its position or at pos, whichever is later,
// and returns the position (events between the two were committed
// before the subscriber asked to start).
func (s *Sub) goLive(pos int64) int64 {
	f := s.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	pos = max(pos, f.last)
	s.pos, s.live = pos, true
	return pos
}

// announce sends live.reset, when reset, and live.ready at the
// subscription's position.
func (s *Sub) announce(send func([]byte) error, pos int64, reset bool) error {
	if pos < 0 {
		f := s.feed
		f.mu.Lock()
		pos = s.pos
		f.mu.Unlock()
	}
	if reset {
		if err := send(control(feedback.LiveReset, pos)); err != nil {
			return err
		}
	}
	return send(control(feedback.LiveReady, pos))
}

// control encodes a control message.
func control(typ string, seq int64) []byte {
	b, _ := json.Marshal(feedback.LiveControl{Type: typ, Seq: seq})
	return b
}
