package offline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// flakyStore fails a share of its writes, before or after doing them.
type flakyStore struct {
	offline.Store
	rng  *rand.Rand
	rate float64
}

var errFlaky = errors.New("flaky store")

func (f *flakyStore) write(do func() error) error {
	if f.rng.Float64() >= f.rate {
		return do()
	}
	if f.rng.IntN(2) == 0 {
		return errFlaky // not done
	}
	_ = do()
	return errFlaky // done, but reported as failed
}

func (f *flakyStore) Put(ctx context.Context, it offline.Item) error {
	return f.write(func() error { return f.Store.Put(ctx, it) })
}

func (f *flakyStore) Delete(ctx context.Context, id string) error {
	return f.write(func() error { return f.Store.Delete(ctx, id) })
}

func (f *flakyStore) PutDead(ctx context.Context, it offline.Item) error {
	return f.write(func() error { return f.Store.PutDead(ctx, it) })
}

// chaosServer answers at random and remembers what it told the client.
type chaosServer struct {
	t        *testing.T
	rng      *rand.Rand
	now      func() time.Time
	acked    map[string]bool // answered 2xx or 409 idempotency at least once
	rejected map[string]bool // answered with a dead-letter status at least once
	calm     bool            // answer 201 to everything
}

// itemStatus picks an answer for one submission.
func (c *chaosServer) itemStatus(id string) (int, *feedback.Problem) {
	statuses := []int{201, 201, 201, 200, 409, 409, 422, 410, 400, 500, 503, 429}
	status := statuses[c.rng.IntN(len(statuses))]
	if c.calm {
		status = 201
	}
	var p *feedback.Problem
	switch {
	case status == 409 && c.rng.IntN(2) == 0:
		p = &feedback.Problem{Code: feedback.EFormNotActive, Detail: "closed"}
		c.rejected[id] = true
	case status < 300 || status == 409:
		c.acked[id] = true
	case status < 429:
		p = &feedback.Problem{Code: feedback.EValidation, Detail: fmt.Sprint("rejected ", status)}
		c.rejected[id] = true
	}
	return status, p
}

func (c *chaosServer) respond(r request) (offline.Response, error) {
	if !c.calm && c.rng.IntN(10) == 0 {
		return offline.Response{}, errNetwork
	}
	if r.URL != offline.DefaultSyncURL {
		var s feedback.Submission
		json.Unmarshal(r.Body, &s)
		status, p := c.itemStatus(s.ID)
		b, _ := json.Marshal(p)
		if !c.calm && c.rng.IntN(10) == 0 {
			return offline.Response{}, errNetwork // stored, but the answer was lost
		}
		return offline.Response{Status: status, Body: b, Reset: c.now().Add(time.Duration(c.rng.IntN(90)) * time.Second)}, nil
	}
	ids := r.ids(c.t)
	if !c.calm {
		switch c.rng.IntN(12) {
		case 0:
			return offline.Response{Status: 401}, nil
		case 1:
			if len(ids) == 1 {
				c.rejected[ids[0]] = true
			}
			return offline.Response{Status: 413}, nil
		case 2:
			return offline.Response{Status: 503}, nil
		case 3:
			return offline.Response{Status: 429, Reset: c.now().Add(time.Minute)}, nil
		}
	}
	var out feedback.SyncResponse
	for _, id := range ids {
		status, p := c.itemStatus(id)
		out.Results = append(out.Results, feedback.SyncResult{ID: id, Status: status, Problem: p})
	}
	if !c.calm && c.rng.IntN(5) == 0 {
		out.Results = out.Results[:c.rng.IntN(len(out.Results)+1)]
	}
	b, _ := json.Marshal(out)
	return offline.Response{Status: 200, Body: b}, nil
}

// TestNothingVanishes runs random outcomes, store failures and resubmits
// over many passes: every item must end delivered (after a 2xx or 409
// answer) or dead-lettered (after a rejection), and none may vanish.
func TestNothingVanishes(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { chaos(t, seed) })
	}
}

func chaos(t *testing.T, seed uint64) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 42))
	c := newClock()
	srv := &chaosServer{t: t, rng: rng, now: c.Now, acked: map[string]bool{}, rejected: map[string]bool{}}
	mem := offline.NewMemory()
	store := &flakyStore{Store: mem, rng: rng, rate: 0.05}
	q := offline.New(store, &fakeSender{respond: srv.respond}, offline.WithClock(c.Now), offline.WithRand(rng.Float64),
		offline.WithBatchSize(1+rng.IntN(20)), offline.WithKioskCredential(func() string { return "fbkk_x" }))
	var added []string
	for step := range 400 {
		switch n := rng.IntN(10); {
		case n < 4:
			id, isNew := fmt.Sprintf("%08d-0000-7000-8000-000000000000", step), true
			if len(added) > 0 && rng.IntN(8) == 0 {
				id, isNew = added[rng.IntN(len(added))], false // a resubmit
			}
			it := visitor(id, step)
			if rng.IntN(2) == 0 {
				it = kiosk(id, step)
			}
			// A failed Add is reported to the visitor, who sends again.
			if err := q.Add(ctx, it); err == nil && isNew {
				added = append(added, id)
			}
		case n < 8:
			q.Flush(ctx)
		default:
			c.Advance(time.Duration(rng.IntN(400)) * time.Second)
		}
		checkNoneVanished(t, mem, srv, added)
	}
	srv.calm, store.rate = true, 0
	for range 50 {
		c.Advance(time.Hour)
		if rep, err := q.Flush(ctx); err == nil && rep.Requests == 0 {
			break
		}
	}
	checkNoneVanished(t, mem, srv, added)
	if pending, _ := mem.List(ctx); len(pending) != 0 {
		t.Errorf("%d items still pending with a calm server", len(pending))
	}
}

func checkNoneVanished(t *testing.T, m *offline.Memory, srv *chaosServer, added []string) {
	t.Helper()
	ctx := context.Background()
	held := map[string]bool{}
	pending, _ := m.List(ctx)
	for _, it := range pending {
		held[it.ID] = true
	}
	dead, _ := m.ListDead(ctx)
	for _, it := range dead {
		held[it.ID] = true
		if !srv.rejected[it.ID] || it.LastStatus < 400 || it.LastError == "" {
			t.Fatalf("dead letter %+v was never rejected by the service, or lacks status and detail", it)
		}
	}
	for _, id := range added {
		if !held[id] && !srv.acked[id] {
			t.Fatalf("item %s vanished: not pending, not dead, never acknowledged", id)
		}
	}
}
