package webhook

import (
	"cmp"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Schedule is the Standard Webhooks retry schedule: the first attempt is
// immediate, and each failed attempt waits the next delay, so there are
// len(Schedule)+1 attempts over about three days before a delivery fails
// and its subscription is disabled.
var Schedule = []time.Duration{
	5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour,
	10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour,
}

// Queue is what the dispatcher needs of the store.
type Queue interface {
	server.DeliveryStore
}

// Dispatcher delivers the queue's due deliveries. Any number of
// dispatchers may share one database: each claims deliveries under a
// lease, so a delivery is attempted by one of them at a time, and a
// dispatcher that dies has its leases taken over when they expire.
//
// Attempts are network waits, so a dispatcher keeps many in flight
// (Concurrency), but never more than PerWebhook for one subscription
// (the claim counts every dispatcher's leases) nor PerHost to one
// destination host, and it claims in turns across subscriptions: a
// receiver that hangs holds its own subscription's share and no more.
// Finished attempts are recorded in batches, one transaction each.
type Dispatcher struct {
	Queue  Queue
	Keys   *secret.Keyring
	Client *http.Client
	Log    *slog.Logger
	// Schedule is the retry schedule; nil means [Schedule].
	Schedule []time.Duration
	// Lease bounds how long a claimed delivery stays this dispatcher's:
	// longer than a subscription's claimed deliveries take to be sent
	// PerWebhook at a time, and recorded. Zero means [DefaultLease].
	Lease time.Duration
	// Concurrency is how many attempts are in flight at once (they are
	// network waits); the dispatcher holds up to claimAhead times as
	// many deliveries, claimed and not yet recorded. Zero means
	// [DefaultConcurrency].
	Concurrency int
	// PerWebhook caps one subscription's attempts in flight in this
	// dispatcher; a claim leases at most claimAhead×PerWebhook of a
	// subscription's deliveries at once, counting every dispatcher's
	// leases. Zero means [DefaultPerWebhook].
	PerWebhook int
	// PerHost caps this dispatcher's attempts in flight to one
	// destination host, whatever the subscriptions; zero means
	// [DefaultPerHost].
	PerHost int
	// Poll is the longest sleep between looks at the queue; zero means
	// 250 ms, which bounds the delay of a delivery another instance
	// created when no wake-up reaches this one.
	Poll time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	id    string
	news  atomic.Bool // deliveries may have been created or fallen due since the last claim
	wake  chan struct{}
	once  sync.Once
	flush chan struct{}
	mu    sync.Mutex
	book  book
}

// Defaults of a [Dispatcher]'s limits.
const (
	DefaultConcurrency = 256
	DefaultPerWebhook  = 16
	DefaultPerHost     = 64
	// DefaultLease is long enough for an attempt that starts in the first
	// half of the lease (a delivery that waited longer for its
	// subscription's attempts is released unattempted), at most
	// [ClientTimeout], and its record.
	DefaultLease = 2 * time.Minute
)

func (d *Dispatcher) init() {
	d.once.Do(func() {
		host, _ := os.Hostname()
		b := make([]byte, 4)
		_, _ = crand.Read(b)
		d.id = host + "-" + hex.EncodeToString(b)
		d.wake = make(chan struct{}, 1)
		d.news.Store(true)
		d.flush = make(chan struct{}, 1)
		d.book = book{subs: map[[2]string]*line{}, hosts: map[string]int{}, subHost: map[string]string{}}
		if d.Schedule == nil {
			d.Schedule = Schedule
		}
		d.Lease = cmp.Or(d.Lease, DefaultLease)
		d.Concurrency = cmp.Or(d.Concurrency, DefaultConcurrency)
		d.PerWebhook = cmp.Or(d.PerWebhook, DefaultPerWebhook)
		d.PerHost = cmp.Or(d.PerHost, DefaultPerHost)
		d.Poll = cmp.Or(d.Poll, 250*time.Millisecond)
		if d.Now == nil {
			d.Now = time.Now
		}
		if d.Log == nil {
			d.Log = slog.Default()
		}
	})
}

// Wake tells the dispatcher that deliveries may be due now, for example
// after a commit that created some; it never blocks.
func (d *Dispatcher) Wake() {
	d.init()
	d.news.Store(true)
	signal(d.wake)
}

// signal sends on a channel of capacity one without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Run delivers until ctx ends, then waits for the attempts in flight and
// records them.
func (d *Dispatcher) Run(ctx context.Context) {
	d.init()
	var attempts sync.WaitGroup
	stop, recorded := make(chan struct{}), make(chan struct{})
	go func() { defer close(recorded); d.record(stop) }()
	for ctx.Err() == nil {
		free := d.room()
		if free == 0 {
			d.idle(ctx, nil) // a recorded batch wakes us
			continue
		}
		// After a record, refill the room it freed; after news or a
		// poll, look past full subscriptions for the others.
		claimed, err := d.Queue.ClaimDue(ctx, d.id, server.Claim{Lease: d.Lease, Limit: free,
			PerWebhook: claimAhead * d.PerWebhook, Skip: d.skip(), Refill: !d.news.Swap(false)})
		if err != nil && ctx.Err() == nil {
			d.Log.Error("webhook: claiming deliveries", "err", err)
		}
		for _, del := range d.admit(claimed) {
			attempts.Go(func() { d.deliver(ctx, del) })
		}
		if len(claimed) == free {
			continue // more may be due
		}
		d.sleep(ctx)
	}
	attempts.Wait()
	close(stop)
	<-recorded
}

// sleep waits for a wake-up, the next delivery that falls due later, or
// the poll interval. Whatever is due now and not capped was just
// claimed. While the dispatcher holds deliveries it does not look for
// the next one due: each record wakes it, and the poll bounds the wait.
func (d *Dispatcher) sleep(ctx context.Context) {
	wait := d.Poll
	now := d.Now()
	if d.idleNow() {
		if next, ok, err := d.Queue.NextDue(ctx, now); err == nil && ok {
			wait = min(wait, max(next.Sub(now), 0))
		}
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	if d.idle(ctx, t.C) {
		d.news.Store(true) // another instance's commits, retries now due
	}
}

// idle waits for ctx to end, a wake-up, or timeout, and reports
// whether the timeout came.
func (d *Dispatcher) idle(ctx context.Context, timeout <-chan time.Time) bool {
	select {
	case <-ctx.Done():
	case <-d.wake:
	case <-timeout:
		return true
	}
	return false
}

// deliver attempts del, then each delivery of its subscription that
// waits for this slot, and hands every attempt to the recorder. A
// delivery that waited for more than half its lease, or that waits when
// ctx ends, is released unattempted.
func (d *Dispatcher) deliver(ctx context.Context, del *server.Delivery) {
	for del != nil {
		if ctx.Err() != nil || !d.fresh(del) {
			del = d.finished(del, nil)
			continue
		}
		a, o := d.attempt(ctx, del)
		del = d.finished(del, &server.Finished{Delivery: del, Attempt: a, Outcome: o})
	}
}

// attempt sends del once and judges the answer.
func (d *Dispatcher) attempt(ctx context.Context, del *server.Delivery) (feedback.DeliveryAttempt, server.Outcome) {
	start := d.Now()
	a := feedback.DeliveryAttempt{N: del.Attempts + 1, At: feedback.NewTime(start)}
	status, retryAfter, err := d.send(ctx, del, start)
	a.DurationMS = int(d.Now().Sub(start) / time.Millisecond)
	a.StatusCode = status
	if err != nil {
		a.Error = err.Error()
	}
	o := d.judge(a.N-del.ScheduleBase, status, err, retryAfter)
	if o.Status == feedback.DeliveryPending {
		next := feedback.NewTime(o.NextAttempt)
		a.NextAttemptAt = &next
	}
	return a, o
}

// send posts the payload, signed, and returns the status code, the
// Retry-After delay, and a transport error or a short description of a
// failed answer.
func (d *Dispatcher) send(ctx context.Context, del *server.Delivery, at time.Time) (int, time.Duration, error) {
	keys, err := d.keys(del)
	if err != nil {
		return 0, 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, del.URL, bytesReader(del.Payload))
	if err != nil {
		return 0, 0, err
	}
	req.Header = Headers(keys, del.ID, at, del.Payload)
	res, err := d.Client.Do(req)
	if err != nil {
		return 0, 0, transportError(err)
	}
	defer res.Body.Close()
	body, _ := ReadLimited(res)
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return res.StatusCode, 0, nil
	}
	return res.StatusCode, retryAfter(res.Header.Get("Retry-After"), d.Now()), errors.New(answer(res.StatusCode, body))
}

// keys opens the subscription's secrets: the current one, and the
// previous one while it still signs.
func (d *Dispatcher) keys(del *server.Delivery) ([][]byte, error) {
	var keys [][]byte
	for _, sealed := range [][]byte{del.Secret, del.PreviousSecret} {
		if sealed == nil {
			continue
		}
		plain, err := d.Keys.Open(sealed, SecretAAD(del.WorkspaceID, del.WebhookID))
		if err != nil {
			return nil, errors.New("the signing secret cannot be opened with the configured keys")
		}
		key, err := SecretKey(string(plain))
		if err != nil {
			return nil, err
		}
		keys = append(keys, key)
	}
	return keys, nil
}

// judge decides what follows the nth attempt since the delivery was
// created or redelivered: success, a retry on the schedule (timeouts,
// connection errors, 408, 429, 5xx), or failure.
func (d *Dispatcher) judge(n, status int, err error, retryAfter time.Duration) server.Outcome {
	switch {
	case err == nil:
		return server.Outcome{Status: feedback.DeliverySucceeded}
	case errors.As(err, new(*refusedError)):
		return server.Outcome{Status: feedback.DeliveryFailed} // permanent like a 4xx: redeliver by hand
	case status == http.StatusGone:
		return server.Outcome{Status: feedback.DeliveryFailed, Disable: true,
			Reason: "the receiver answered 410 Gone"}
	case status != 0 && status != http.StatusRequestTimeout && status != http.StatusTooManyRequests && status < 500:
		return server.Outcome{Status: feedback.DeliveryFailed} // a refusal: not retried; redeliver by hand
	case n > len(d.Schedule):
		return server.Outcome{Status: feedback.DeliveryFailed, Disable: true,
			Reason: "every attempt of a delivery failed over the whole retry schedule"}
	}
	delay := jitter(d.Schedule[n-1])
	if retryAfter > delay {
		delay = min(retryAfter, 24*time.Hour)
	}
	return server.Outcome{Status: feedback.DeliveryPending, NextAttempt: d.Now().Add(delay)}
}

// jitter spreads a delay by ±20% so that retries after an outage do not
// arrive together.
func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}
