package offline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/app/offline/offlinetest"
	"github.com/feedbackhq/feedback/shared/feedback"
)

var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: t0} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// request is one call of a fakeSender.
type request struct {
	Method, URL string
	Headers     map[string]string
	Body        []byte
}

// ids returns the ids of a sync request's submissions.
func (r request) ids(t *testing.T) []string {
	t.Helper()
	var body struct{ Submissions []feedback.Submission }
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("sync body %s: %v", r.Body, err)
	}
	var out []string
	for _, s := range body.Submissions {
		out = append(out, s.ID)
	}
	return out
}

// fakeSender answers with respond and records the requests.
type fakeSender struct {
	mu      sync.Mutex
	reqs    []request
	respond func(request) (offline.Response, error)
}

func (f *fakeSender) Send(ctx context.Context, method, url string, headers map[string]string, body []byte) (offline.Response, error) {
	r := request{method, url, headers, append([]byte(nil), body...)}
	f.mu.Lock()
	f.reqs = append(f.reqs, r)
	f.mu.Unlock()
	return f.respond(r)
}

func (f *fakeSender) requests() []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]request(nil), f.reqs...)
}

// answer returns a respond func always giving status and body.
func answer(status int, body string) func(request) (offline.Response, error) {
	return func(request) (offline.Response, error) {
		return offline.Response{Status: status, Body: []byte(body)}, nil
	}
}

var errNetwork = errors.New("failed to fetch")

func problem(status int, code, detail string) string {
	b, _ := json.Marshal(feedback.Problem{Status: status, Code: code, Detail: detail})
	return string(b)
}

// visitor returns a visitor item added n seconds after t0.
func visitor(id string, n int) offline.Item { return offlinetest.Item(id, n) }

// kiosk returns a kiosk item added n seconds after t0.
func kiosk(id string, n int) offline.Item {
	it := offlinetest.Item(id, n)
	it.Kind, it.URL = offline.KindKiosk, ""
	return it
}

// newQueue returns a queue on a fresh memory store with a fixed clock and
// jitter 0.5, holding items.
func newQueue(t *testing.T, s offline.Sender, items []offline.Item, opts ...offline.Option) (*offline.Queue, *offline.Memory, *clock) {
	t.Helper()
	c := newClock()
	m := offline.NewMemory()
	opts = append([]offline.Option{offline.WithClock(c.Now), offline.WithRand(func() float64 { return 0.5 })}, opts...)
	q := offline.New(m, s, opts...)
	for _, it := range items {
		if err := m.Put(context.Background(), it); err != nil {
			t.Fatal(err)
		}
	}
	return q, m, c
}

// idsOf returns the ids of a List's items, for idsOf(t)(m.List(ctx)).
var idsOf = offlinetest.IDs

func kioskIDs(n int) []offline.Item {
	items := make([]offline.Item, n)
	for i := range items {
		items[i] = kiosk(fmt.Sprintf("k%04d", i), i)
	}
	return items
}
