package offline_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/feedbackhq/feedback/app/offline"
	"github.com/feedbackhq/feedback/app/offline/offlinetest"
)

func TestMemoryStore(t *testing.T) {
	offlinetest.Run(t, func(testing.TB) offline.Store { return offline.NewMemory() })
}

func TestAddInvalid(t *testing.T) {
	noURL := visitor("a", 0)
	noURL.URL = ""
	badKind := visitor("a", 0)
	badKind.Kind = "fax"
	badBody := visitor("a", 0)
	badBody.Body = []byte(`{"id":`)
	tests := []struct {
		name string
		it   offline.Item
	}{
		{"no id", offline.Item{Kind: offline.KindVisitor, URL: "/q/x", Body: []byte(`{}`)}},
		{"visitor without URL", noURL},
		{"unknown kind", badKind},
		{"body not JSON", badBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, m, _ := newQueue(t, &fakeSender{respond: answer(201, "")}, nil)
			if err := q.Add(context.Background(), tt.it); !errors.Is(err, offline.ErrInvalidItem) {
				t.Errorf("Add = %v; want ErrInvalidItem", err)
			}
			if got := idsOf(t)(m.List(context.Background())); len(got) != 0 {
				t.Errorf("stored %v; want nothing", got)
			}
		})
	}
}

func TestAddPersistsBeforeSend(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := offline.NewMemory()
	sent := make(chan string, 10)
	s := &fakeSender{respond: func(r request) (offline.Response, error) {
		items, _ := m.List(ctx)
		id := string(r.Body[7:8]) // {"id":"a",…
		for _, it := range items {
			if it.ID == id {
				sent <- id
				return offline.Response{Status: 201}, nil
			}
		}
		t.Errorf("sending %s, which the store does not hold", r.Body)
		sent <- id
		return offline.Response{Status: 201}, nil
	}}
	q := offline.New(m, s)
	go q.Run(ctx, nil)
	for _, id := range []string{"a", "b", "c"} {
		if err := q.Add(ctx, visitor(id, 0)); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-sent:
			if got != id {
				t.Errorf("sent %s; want %s", got, id)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Add(%s) did not trigger a flush", id)
		}
	}
}

func TestAddKeepsAQueuedID(t *testing.T) {
	ctx := context.Background()
	q, m, _ := newQueue(t, &fakeSender{respond: answer(503, "")}, nil)
	first := visitor("a", 0)
	if err := q.Add(ctx, first); err != nil {
		t.Fatal(err)
	}
	q.Flush(ctx) // one failed attempt
	again := visitor("a", 9)
	again.Body = []byte(`{"id":"a","rating":1}`)
	if err := q.Add(ctx, again); err != nil {
		t.Fatal(err)
	}
	items, _ := m.List(ctx)
	first.Attempts, first.LastStatus, first.LastError = 1, 503, "HTTP 503"
	if diff := cmp.Diff([]offline.Item{first}, items); diff != "" {
		t.Errorf("a double tap changed the queued item (-want +got):\n%s", diff)
	}
}

func TestAddReplacesADeadLetter(t *testing.T) {
	ctx := context.Background()
	s := &fakeSender{respond: answer(422, problem(422, "validation_failed", "The rating is required."))}
	q, m, _ := newQueue(t, s, nil)
	q.Add(ctx, visitor("a", 0))
	q.Flush(ctx)
	fixed := visitor("a", 5)
	fixed.Body = []byte(`{"id":"a","rating":5}`)
	if err := q.Add(ctx, fixed); err != nil {
		t.Fatal(err)
	}
	items, _ := m.List(ctx)
	if diff := cmp.Diff([]offline.Item{fixed}, items); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
	if dead := idsOf(t)(m.ListDead(ctx)); len(dead) != 0 {
		t.Errorf("dead = %v; want the corrected item out of the dead letters", dead)
	}
}

func TestOneFlushAtATime(t *testing.T) {
	ctx := context.Background()
	var inFlight, most atomic.Int32
	s := &fakeSender{respond: func(request) (offline.Response, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		if n > most.Load() {
			most.Store(n)
		}
		time.Sleep(time.Millisecond)
		return offline.Response{Status: 201}, nil
	}}
	var items []offline.Item
	for i := range 20 {
		items = append(items, visitor(string(rune('a'+i)), i))
	}
	q, m, _ := newQueue(t, s, items)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := q.Flush(ctx); err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() { q.Stats(ctx) })
		wg.Go(func() { q.Add(ctx, visitor("late", 99)) })
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d sends in flight at once; want 1", most.Load())
	}
	q.Flush(ctx)
	if got := idsOf(t)(m.List(ctx)); len(got) != 0 {
		t.Errorf("pending = %v; want none", got)
	}
	sends := map[string]int{}
	for _, r := range s.requests() {
		sends[string(r.Body)]++
	}
	for _, it := range items {
		if n := sends[string(it.Body)]; n != 1 {
			t.Errorf("%s sent %d times; want once", it.ID, n)
		}
	}
}

// crashStore fails Delete while crash is set, as if the app died between
// the service's answer and the delete.
type crashStore struct {
	offline.Store
	crash bool
}

func (c *crashStore) Delete(ctx context.Context, id string) error {
	if c.crash {
		return errors.New("the tab was closed")
	}
	return c.Store.Delete(ctx, id)
}

func TestCrashBetweenSendAndDelete(t *testing.T) {
	ctx := context.Background()
	store := &crashStore{Store: offline.NewMemory(), crash: true}
	seen := map[string]bool{}
	server := &fakeSender{respond: func(r request) (offline.Response, error) {
		status := 201
		if seen[string(r.Body)] {
			status = 200 // the service dedupes by id
		}
		seen[string(r.Body)] = true
		return offline.Response{Status: status}, nil
	}}
	q := offline.New(store, server)
	q.Add(ctx, visitor("a", 0))
	if _, err := q.Flush(ctx); err == nil {
		t.Fatal("Flush ignored the failed delete")
	}
	if got := idsOf(t)(store.List(ctx)); len(got) != 1 {
		t.Fatalf("pending after the crash = %v; want the item still there", got)
	}
	store.crash = false
	restarted := offline.New(store, server) // the page reloads
	rep, err := restarted.Flush(ctx)
	if err != nil || rep.Removed != 1 {
		t.Errorf("Flush after the restart = %+v, %v; want the resent item removed", rep, err)
	}
	if got := idsOf(t)(store.List(ctx)); len(got) != 0 {
		t.Errorf("pending = %v; want none", got)
	}
	if len(server.requests()) != 2 || len(seen) != 1 {
		t.Errorf("the service saw %d sends of %d submissions; want 2 of 1", len(server.requests()), len(seen))
	}
}

func TestSubscribe(t *testing.T) {
	ctx := context.Background()
	s := &fakeSender{respond: answer(503, "")}
	q, _, _ := newQueue(t, s, nil)
	var got []offline.Stats
	cancel := q.Subscribe(func(st offline.Stats) { got = append(got, st) })
	q.Add(ctx, visitor("a", 0))
	q.Add(ctx, visitor("b", 1))
	q.Flush(ctx)
	cancel()
	q.Add(ctx, visitor("c", 2))
	next := t0.Add(time.Second)
	want := []offline.Stats{
		{Pending: 1},
		{Pending: 2},
		{Pending: 2, NextTry: next, LastError: "HTTP 503"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}
}

func TestRequeueAndDiscard(t *testing.T) {
	ctx := context.Background()
	s := &fakeSender{respond: answer(410, problem(410, "poster_revoked", "Withdrawn."))}
	q, m, _ := newQueue(t, s, []offline.Item{visitor("a", 0), visitor("b", 1)})
	q.Flush(ctx)
	dead, _ := q.Dead(ctx)
	if len(dead) != 2 || dead[0].LastStatus != 410 || dead[0].LastError != "Withdrawn." {
		t.Fatalf("Dead = %+v; want both items with status and detail", dead)
	}
	if err := q.Requeue(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := q.Requeue(ctx, "nope"); err == nil {
		t.Error("Requeue of an unknown id succeeded")
	}
	if err := q.Discard(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	st, _ := q.Stats(ctx)
	if st.Pending != 1 || st.Dead != 0 {
		t.Errorf("Stats = %+v; want a requeued and b discarded", st)
	}
	s.respond = answer(201, "")
	q.Flush(ctx)
	if got := idsOf(t)(m.List(ctx)); len(got) != 0 {
		t.Errorf("pending = %v; want none", got)
	}
}

func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sends := make(chan request, 10)
	s := &fakeSender{respond: func(r request) (offline.Response, error) {
		sends <- r
		return offline.Response{Status: 503}, nil
	}}
	// A real clock: Run's timer follows it.
	m := offline.NewMemory()
	m.Put(ctx, visitor("a", 0)) // not Add, which would ask for a flush
	q := offline.New(m, s, offline.WithRand(func() float64 { return 0 }))
	trigger := make(chan struct{})
	done := make(chan struct{})
	go func() {
		q.Run(ctx, trigger)
		close(done)
	}()
	expect := func(why string) {
		t.Helper()
		select {
		case <-sends:
		case <-time.After(5 * time.Second):
			t.Fatalf("no send %s", why)
		}
	}
	expect("at start")
	trigger <- struct{}{}
	expect("on a trigger")
	start := time.Now()
	expect("when the backoff (1 s) ends")
	if d := time.Since(start); d < offline.MinBackoff/2 {
		t.Errorf("retried after %v; want the 1 s backoff", d)
	}
	close(trigger)
	q.Add(ctx, visitor("b", 1))
	expect("after Add, with the trigger closed")
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return when ctx ended")
	}
}
