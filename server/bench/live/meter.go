package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// meter holds a run's submissions: made before the run, so that the
// sockets' readers look them up without a lock. The first warm of them
// warm the instances up and are not measured: a fresh instance's first
// requests open its database connections and fill its caches, and took
// several times as long as the rest in the first trials.
type meter struct {
	start  time.Time
	warm   int
	ids    []string
	index  map[string]int // submission id → index
	tenant []int          // the workspace of each submission
	sent   []atomic.Int64 // when each POST was sent, in nanoseconds since start
	ok     []atomic.Bool  // whether each POST was answered with success

	received atomic.Int64 // first receipts, for the drain
	closing  atomic.Bool  // set before the run closes its sockets
	took     time.Duration

	mu      sync.Mutex
	failed  int
	failure string // the first failure
}

// newMeter makes warm and then n submissions, spread round-robin over
// the workspaces.
func newMeter(warm, n, tenants int) *meter {
	n += warm
	m := &meter{start: time.Now(), warm: warm, ids: make([]string, n), index: make(map[string]int, n),
		tenant: make([]int, n), sent: make([]atomic.Int64, n), ok: make([]atomic.Bool, n)}
	for i := range n {
		m.ids[i] = feedback.NewID()
		m.index[m.ids[i]] = i
		m.tenant[i] = i % tenants
	}
	return m
}

// now is the time since the run started, on the monotonic clock.
func (m *meter) now() int64 { return int64(time.Since(m.start)) }

// record accounts for a message that socket k read at the time at.
func (m *meter) record(k *sock, msg []byte, at int64) {
	id, ok := submissionID(msg)
	i, known := m.index[string(id)] // string(id) in an index does not allocate
	switch {
	case !ok || !known:
		k.other++
	case i < m.warm:
	case m.tenant[i] != k.tenant:
		k.foreign++
	case k.seen.set(i):
		k.dups++
	default:
		k.lat = append(k.lat, at-m.sent[i].Load())
		m.received.Add(1)
	}
}

// submit posts every submission at rate per second, open-loop (a slow
// answer delays no later POST), round-robin over the instances at addrs,
// each to its workspace's poster, and returns when all are answered.
func (m *meter) submit(ctx context.Context, addrs []string, tenants []tenant, rate float64) error {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	defer client.CloseIdleConnections()
	interval := time.Duration(float64(time.Second) / rate)
	begin := time.Now()
	t := time.NewTimer(0)
	defer t.Stop()
	var wg sync.WaitGroup
	for i := range m.ids {
		t.Reset(time.Until(begin.Add(time.Duration(i) * interval)))
		select {
		case <-ctx.Done():
			wg.Wait()
			return ctx.Err()
		case <-t.C:
		}
		url := "http://" + addrs[i%len(addrs)] + "/q/" + tenants[m.tenant[i]].code
		wg.Go(func() { m.post(ctx, client, url, i) })
	}
	wg.Wait()
	m.took = time.Since(begin) - time.Duration(m.warm)*interval
	return nil
}

// post sends submission i and records when it was sent and whether it
// was stored.
func (m *meter) post(ctx context.Context, client *http.Client, url string, i int) {
	body := `{"id":"` + m.ids[i] + `","rating":4}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	m.sent[i].Store(m.now())
	res, err := client.Do(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode/100 != 2 {
			err = fmt.Errorf("POST /q/…: %s", res.Status)
		}
	}
	if err != nil {
		m.fail(err)
		return
	}
	m.ok[i].Store(true)
}

// fail counts a failed POST and keeps the first error.
func (m *meter) fail(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failed++; m.failed == 1 {
		m.failure = err.Error()
	}
}

// expected returns how many deliveries the stored submissions owe: one
// to each socket of their workspace (perTenant[w] sockets).
func (m *meter) expected(perTenant []int) int64 {
	var n int64
	for i := m.warm; i < len(m.ids); i++ {
		if m.ok[i].Load() {
			n += int64(perTenant[m.tenant[i]])
		}
	}
	return n
}

// drain waits until the sockets have received want submissions, or for
// at most d.
func (m *meter) drain(ctx context.Context, want int64, d time.Duration) {
	deadline := time.Now().Add(d)
	for m.received.Load() < want && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
}
