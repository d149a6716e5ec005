package offline

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// DefaultSyncURL is where kiosk batches go unless [WithSyncURL] says
// otherwise.
const DefaultSyncURL = "/kiosk/sync"

// Queue sends the items of a [Store] through a [Sender]. Add, Flush,
// Stats and the dead-letter methods may be called from different
// goroutines; one flush runs at a time.
type Queue struct {
	store   Store
	sender  Sender
	now     func() time.Time
	rand    func() float64
	cred    func() string
	batch   int
	syncURL string

	flushing chan struct{} // holds a token while a pass runs
	kick     chan struct{} // Add asks Run for a pass
	addMu    sync.Mutex    // makes Add's look-then-put atomic

	mu       sync.Mutex // guards the fields below
	failures int        // consecutive failed passes
	nextTry  time.Time  // the backoff or rate-limit deadline
	limited  bool       // nextTry is a rate limit: no pass before it
	unpaired bool
	lastErr  string
	subs     map[int]func(Stats)
	nextSub  int
}

// Option configures a [Queue].
type Option func(*Queue)

// WithClock sets the clock (time.Now by default).
func WithClock(now func() time.Time) Option { return func(q *Queue) { q.now = now } }

// WithRand sets the source of jitter, returning numbers in [0, 1)
// (math/rand/v2.Float64 by default).
func WithRand(r func() float64) Option { return func(q *Queue) { q.rand = r } }

// WithKioskCredential sets the function returning the kiosk's credential
// (fbkk_…), sent as a Bearer token with each batch; kiosk items wait while
// it returns "". Without it kiosk items are never sent.
func WithKioskCredential(cred func() string) Option { return func(q *Queue) { q.cred = cred } }

// WithBatchSize sets how many kiosk items one sync carries, at most
// [feedback.MaxSyncBatch] (the default).
func WithBatchSize(n int) Option {
	return func(q *Queue) { q.batch = max(1, min(n, feedback.MaxSyncBatch)) }
}

// WithSyncURL sets the kiosk sync endpoint ([DefaultSyncURL] by default).
func WithSyncURL(url string) Option { return func(q *Queue) { q.syncURL = url } }

// New returns a queue over store that sends through sender.
func New(store Store, sender Sender, opts ...Option) *Queue {
	q := &Queue{
		store: store, sender: sender,
		now: time.Now, rand: rand.Float64, cred: func() string { return "" },
		batch: feedback.MaxSyncBatch, syncURL: DefaultSyncURL,
		flushing: make(chan struct{}, 1), kick: make(chan struct{}, 1),
		subs: make(map[int]func(Stats)),
	}
	for _, o := range opts {
		o(q)
	}
	return q
}

// Add stores it, then asks [Queue.Run] for a flush. It returns once the
// item is stored, before any network attempt. An item whose ID is already
// queued is kept as it is, since the form's id makes a resubmission the
// same submission; an item whose ID is a dead letter replaces it, so a
// visitor can correct a rejected form and send it again. A zero Added is
// set to now. Add returns [ErrInvalidItem] for an item that could never be
// sent.
func (q *Queue) Add(ctx context.Context, it Item) error {
	if err := it.validate(); err != nil {
		return err
	}
	if it.Added.IsZero() {
		it.Added = q.now()
	}
	it.Attempts, it.LastStatus, it.LastError = 0, 0, ""
	added, err := q.add(ctx, it)
	if err != nil || !added {
		return err
	}
	q.notify(ctx)
	q.Poke()
	return nil
}

func (q *Queue) add(ctx context.Context, it Item) (bool, error) {
	q.addMu.Lock()
	defer q.addMu.Unlock()
	queued, err := q.store.Has(ctx, it.ID)
	if err != nil || queued {
		return false, err
	}
	if err := q.store.Put(ctx, it); err != nil {
		return false, err
	}
	return true, q.store.DeleteDead(ctx, it.ID)
}

func indexOf(items []Item, id string) int {
	for i := range items {
		if items[i].ID == id {
			return i
		}
	}
	return -1
}

// Poke asks [Queue.Run] for a flush without waiting for it.
func (q *Queue) Poke() {
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// Stats returns the queue's counts and state.
func (q *Queue) Stats(ctx context.Context) (Stats, error) {
	items, err := q.store.List(ctx)
	if err != nil {
		return Stats{}, err
	}
	dead, err := q.store.ListDead(ctx)
	if err != nil {
		return Stats{}, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return Stats{Pending: len(items), Dead: len(dead), NextTry: q.nextTry,
		Unpaired: q.unpaired, LastError: q.lastErr}, nil
}

// Subscribe calls f with the new [Stats] after every change: an Add, each
// outcome of a flush, a change of the dead-letter list. f runs on the
// goroutine that made the change, so it must return quickly and must not
// call Flush; a go-app component dispatches the stats to its UI goroutine.
// The returned function ends the subscription.
func (q *Queue) Subscribe(f func(Stats)) (cancel func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	id := q.nextSub
	q.nextSub++
	q.subs[id] = f
	return func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		delete(q.subs, id)
	}
}

// notify sends the current stats to the subscribers.
func (q *Queue) notify(ctx context.Context) {
	q.mu.Lock()
	n := len(q.subs)
	q.mu.Unlock()
	if n == 0 {
		return
	}
	st, err := q.Stats(context.WithoutCancel(ctx))
	if err != nil {
		return
	}
	q.mu.Lock()
	subs := make([]func(Stats), 0, len(q.subs))
	for _, f := range q.subs {
		subs = append(subs, f)
	}
	q.mu.Unlock()
	for _, f := range subs {
		f(st)
	}
}
