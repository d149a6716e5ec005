package live

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Source is the outbox a hub reads.
type Source interface {
	// Events returns up to limit events of the workspace with seq >
	// after, in seq order, leaving out those that a later commit could
	// still precede.
	Events(ctx context.Context, workspaceID string, after int64, limit int) ([]feedback.Event, error)
	// EventPosition returns the largest seq of the workspace's events
	// that Events could return now (0 when there is none): every event
	// committed before the call is at or below it, and resuming after it
	// misses no event committed later.
	EventPosition(ctx context.Context, workspaceID string) (int64, error)
}

// ErrClosed is returned by Join after Close.
var ErrClosed = errors.New("live: the hub is closed")

// Defaults of a Hub's settings.
const (
	DefaultPoll      = time.Second
	DefaultBuffer    = 256
	DefaultMaxReplay = 10_000
	DefaultRecheck   = 3 * time.Second
	readBatch        = 500
)

// Hub fans the events of each workspace out to its subscribers in this
// process. Set its fields before the first Join.
type Hub struct {
	Source Source
	Log    *slog.Logger
	// Poll bounds how long a feed waits for a wake-up before it reads
	// the store anyway (an event committed by another instance whose
	// notification was lost). DefaultPoll when zero.
	Poll time.Duration
	// Buffer is how many messages a subscriber may fall behind, beyond
	// one read of the store (a burst of up to 500 events, such as a
	// kiosk's backlog, never drops a reader that keeps up), before it is
	// dropped. DefaultBuffer when zero.
	Buffer int
	// MaxReplay is how many events a resuming subscriber may replay;
	// beyond, it is told to reset. DefaultMaxReplay when zero.
	MaxReplay int
	// Recheck is how often the credentials of open subscriptions are
	// checked again (see Sub.Check). DefaultRecheck when zero.
	Recheck time.Duration

	open     sync.WaitGroup // subscriptions not yet left
	mu       sync.Mutex
	feeds    map[string]*feed
	closed   bool
	rechecks sync.Once
	stop     context.CancelFunc
	ctx      context.Context
}

// start prepares the hub's context and its credential checks, once.
func (h *Hub) start() {
	h.rechecks.Do(func() {
		h.ctx, h.stop = context.WithCancel(context.Background())
		h.feeds = map[string]*feed{}
		if h.Log == nil {
			h.Log = slog.New(slog.DiscardHandler)
		}
		go h.recheckLoop(h.ctx)
	})
}

func (h *Hub) poll() time.Duration    { return orDefault(h.Poll, DefaultPoll) }
func (h *Hub) buffer() int            { return orDefault(h.Buffer, DefaultBuffer) }
func (h *Hub) maxReplay() int         { return orDefault(h.MaxReplay, DefaultMaxReplay) }
func (h *Hub) recheck() time.Duration { return orDefault(h.Recheck, DefaultRecheck) }

// orDefault returns v, or def when v is zero.
func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Wake tells the hub that the workspace may have new events (a commit
// in this process, or a notification from another instance). It never
// blocks.
func (h *Hub) Wake(workspaceID string) {
	h.mu.Lock()
	f := h.feeds[workspaceID]
	h.mu.Unlock()
	if f != nil {
		signal(f.wake)
	}
}

// WakeAll wakes every feed, after this instance may have missed
// notifications (a reconnected listener).
func (h *Hub) WakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range h.feeds {
		signal(f.wake)
	}
}

// closeWait bounds how long Close waits for the subscriptions to leave.
const closeWait = 5 * time.Second

// Close ends every subscription with StatusGoingAway, refuses new ones,
// and waits, at most closeWait, until their handlers have left (closed
// their sockets); feeds stop.
func (h *Hub) Close() {
	h.start()
	h.mu.Lock()
	h.closed = true
	var subs []*Sub
	for _, f := range h.feeds {
		f.mu.Lock()
		for s := range f.subs {
			subs = append(subs, s)
		}
		f.mu.Unlock()
	}
	h.mu.Unlock()
	for _, s := range subs {
		s.kick(StatusGoingAway, "the server is shutting down")
	}
	left := make(chan struct{})
	go func() { h.open.Wait(); close(left) }()
	select {
	case <-left:
	case <-time.After(closeWait):
	}
	h.stop()
}

// Subscribers returns how many subscriptions are open.
func (h *Hub) Subscribers() int {
	h.start()
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, f := range h.feeds {
		f.mu.Lock()
		n += len(f.subs)
		f.mu.Unlock()
	}
	return n
}

// feedOf returns the workspace's feed, started and holding one more
// reference, and counts one more open subscription; Sub.Leave gives
// both back.
func (h *Hub) feedOf(ctx context.Context, workspaceID string) (*feed, error) {
	h.start()
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrClosed
	}
	f := h.feeds[workspaceID]
	fresh := f == nil
	if fresh {
		f = newFeed(h, workspaceID)
		h.feeds[workspaceID] = f
	}
	f.refs++
	h.open.Add(1) // under mu, before Close can wait
	h.mu.Unlock()
	if fresh {
		f.init(ctx)
	}
	select {
	case <-f.ready:
	case <-ctx.Done():
		h.release(f)
		h.open.Done()
		return nil, ctx.Err()
	}
	if f.err != nil {
		h.release(f)
		h.open.Done()
		return nil, f.err
	}
	return f, nil
}

// release gives back a reference to f; the last one stops it.
func (h *Hub) release(f *feed) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f.refs--
	if f.refs == 0 {
		if h.feeds[f.ws] == f {
			delete(h.feeds, f.ws)
		}
		f.cancel()
	}
}

// signal sends on a wake-up channel of capacity 1 without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
