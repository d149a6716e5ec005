package storetest

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func (f *fixture) appendEvent(ws, typ string, data any) *feedback.Event {
	f.t.Helper()
	b, err := json.Marshal(data)
	f.must(err)
	e := &feedback.Event{Type: typ, Data: b}
	f.must(f.s.AppendEvent(f.ctx(), ws, e))
	return e
}

func testEvent(t *testing.T, h harness) {
	h.run(t, "Append", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		var want []feedback.Event
		for i := range 3 {
			f.clock.Add(time.Second)
			e := f.appendEvent(ws, feedback.EventWebhookTest, map[string]int{"n": i})
			if _, ok := feedback.ParseUUID(e.ID); !ok || e.Seq != int64(i+1) || e.WorkspaceID != ws ||
				!e.Timestamp.Equal(f.clock.stored()) {
				t.Errorf("AppendEvent %d set id %q, seq %d, workspace %s, timestamp %v", i, e.ID, e.Seq, e.WorkspaceID, e.Timestamp)
			}
			want = append(want, *e)
		}
		tests := []struct {
			name         string
			after        int64
			limit        int
			first, count int // of want
		}{
			{"all", 0, 10, 0, 3},
			{"after 1", 1, 10, 1, 2},
			{"after the last", 3, 10, 0, 0},
			{"limit", 0, 2, 0, 2},
			{"limit after", 1, 1, 1, 1},
			{"no limit", 0, 0, 0, 3},
		}
		for _, tt := range tests {
			got, err := f.s.Events(f.ctx(), ws, tt.after, tt.limit)
			f.must(err)
			if len(got) != tt.count {
				t.Errorf("%s: %d events, want %d", tt.name, len(got), tt.count)
				continue
			}
			for i, e := range got {
				w := want[tt.first+i]
				wantJSON(t, tt.name+": data", json.RawMessage(w.Data), e.Data)
				e.Data, w.Data = nil, nil
				wantEqual(t, tt.name+": event", w, e)
			}
		}
		err := f.s.AppendEvent(f.ctx(), feedback.NewID(), &feedback.Event{Type: feedback.EventWebhookTest, Data: []byte("{}")})
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "PerWorkspace", func(t *testing.T, f *fixture) {
		a, b := f.workspace("a"), f.workspace("b")
		f.appendEvent(a, feedback.EventWebhookTest, 1)
		f.appendEvent(a, feedback.EventWebhookTest, 2)
		e := f.appendEvent(b, feedback.EventWebhookTest, 3)
		if e.Seq != 1 {
			t.Errorf("the first event of workspace b has seq %d, want 1", e.Seq)
		}
		if got := f.events(b); len(got) != 1 || got[0].ID != e.ID {
			t.Errorf("Events(b) = %v, want only its own event", got)
		}
	})
	h.run(t, "Gapless", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		start := int64(len(f.events(w.ws)))
		const writers, each = 8, 10
		var wg sync.WaitGroup
		added := make(chan string, writers*each)
		for i := range writers {
			wg.Go(func() {
				for range each {
					if i%2 == 0 {
						h, err := f.tryHygiene(w.ws, w.location)
						if err != nil {
							t.Error(err)
						}
						added <- h.ID
						continue
					}
					e := &feedback.Event{Type: feedback.EventKioskOnline, Data: []byte(`{"n":1}`)}
					if err := f.s.AppendEvent(f.ctx(), w.ws, e); err != nil {
						t.Error(err)
					}
				}
			})
		}
		if err := readAll(f, w.ws, start, writers*each, &wg); err != nil {
			t.Fatal(err)
		}
		close(added)
		events := f.events(w.ws)
		for i, e := range events {
			if e.Seq != int64(i+1) {
				t.Fatalf("event %d has seq %d: the sequence has a gap or a duplicate", i, e.Seq)
			}
		}
		hygiene := map[string]bool{}
		for _, e := range events[start:] {
			if e.Type == feedback.EventHygieneSubmissionCreated {
				var h feedback.HygieneSubmission
				f.must(json.Unmarshal(e.Data, &h))
				hygiene[h.ID] = true
			}
		}
		for id := range added {
			if !hygiene[id] {
				t.Errorf("no event for submission %s", id)
			}
		}
	})
}

// readAll polls Events while writers run, as a live feed does, until it
// has read n events after start, and reports a poll that skipped a
// sequence number: numbers must become visible in order. It returns
// when the writers are done.
func readAll(f *fixture, ws string, start int64, n int, writers *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() { writers.Wait(); close(done) }()
	defer func() { <-done }()
	last := start
	for finished := false; last < start+int64(n); {
		select {
		case <-done:
			finished = true
		default:
		}
		got, err := f.s.Events(f.ctx(), ws, last, 100)
		if err != nil {
			return err
		}
		for _, e := range got {
			if e.Seq != last+1 {
				return fmt.Errorf("after seq %d the reader saw %d: a number became visible before an earlier one", last, e.Seq)
			}
			last = e.Seq
		}
		if finished && len(got) == 0 {
			return fmt.Errorf("writers are done but only %d of %d events were read", last-start, n)
		}
		if len(got) == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}
