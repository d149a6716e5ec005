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
		last := int64(0)
		for i := range 3 {
			f.clock.Add(time.Second)
			e := f.appendEvent(ws, feedback.EventWebhookTest, map[string]int{"n": i})
			if _, ok := feedback.ParseUUID(e.ID); !ok || e.Seq <= last || e.WorkspaceID != ws ||
				!e.Timestamp.Equal(f.clock.stored()) {
				t.Errorf("AppendEvent %d set id %q, seq %d, workspace %s, timestamp %v", i, e.ID, e.Seq, e.WorkspaceID, e.Timestamp)
			}
			want, last = append(want, *e), e.Seq
		}
		tests := []struct {
			name         string
			after        int64
			limit        int
			first, count int // of want
		}{
			{"all", 0, 10, 0, 3},
			{"after the first", want[0].Seq, 10, 1, 2},
			{"between the first and the second", want[1].Seq - 1, 10, 1, 2},
			{"after the last", want[2].Seq, 10, 0, 0},
			{"limit", 0, 2, 0, 2},
			{"limit after", want[0].Seq, 1, 1, 1},
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
		if got := f.events(b); len(got) != 1 || got[0].ID != e.ID {
			t.Errorf("Events(b) = %v, want only its own event", got)
		}
	})
	h.run(t, "NoneMissed", func(t *testing.T, f *fixture) {
		w := world{ws: f.workspace("acme")}
		w.location = f.location(w.ws).ID
		start := f.events(w.ws)
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
		read, err := readAll(f, w.ws, lastSeq(start), writers*each, 100, &wg)
		if err != nil {
			t.Fatal(err)
		}
		close(added)
		events := f.events(w.ws)
		for i, e := range events[1:] {
			if e.Seq <= events[i].Seq {
				t.Fatalf("event %d has seq %d after %d: the sequence has a duplicate or is out of order", i+1, e.Seq, events[i].Seq)
			}
		}
		wantEqual(t, "the events read while they were written", events[len(start):], read)
		hygiene := map[string]bool{}
		for _, e := range events[len(start):] {
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
	h.run(t, "ResumeUnderConcurrentWriters", testResumeUnderWriters)
}

// testResumeUnderWriters commits submissions from many writers in one
// workspace while a reader resumes after the last event it read, a few
// at a time: it must see every committed event exactly once, in
// increasing seq order. The list's totals, whose hourly counters the
// writers shared, must count every submission.
func testResumeUnderWriters(t *testing.T, f *fixture) {
	w := world{ws: f.workspace("acme")} // with no event of its own
	w.location = f.location(w.ws).ID
	const writers, each = 16, 8
	var wg sync.WaitGroup
	ids := make(chan string, writers*each)
	for range writers {
		wg.Go(func() {
			for range each {
				h, err := f.tryHygiene(w.ws, w.location)
				if err != nil {
					t.Error(err)
					return
				}
				ids <- h.ID
			}
		})
	}
	read, err := readAll(f, w.ws, 0, writers*each, 3, &wg)
	if err != nil {
		t.Fatal(err)
	}
	close(ids)
	seen := map[string]int{}
	for _, e := range read {
		var h feedback.HygieneSubmission
		f.must(json.Unmarshal(e.Data, &h))
		seen[h.ID]++
	}
	for id := range ids {
		if seen[id] != 1 {
			t.Errorf("submission %s: the reader saw its event %d times, want once", id, seen[id])
		}
	}
	if len(seen) != writers*each {
		t.Errorf("the reader saw events of %d submissions, want %d", len(seen), writers*each)
	}
	for _, loc := range []string{"", w.location} { // the workspace's counters, the location's
		_, total, err := f.s.HygieneSubmissions(f.ctx(), w.ws, feedback.ListParams{Page: 1, PerPage: 1, LocationID: loc})
		f.must(err)
		if total != writers*each {
			t.Errorf("location %q: total %d after concurrent writers, want %d", loc, total, writers*each)
		}
	}
}

// lastSeq returns the seq of the last of events, 0 if there are none.
func lastSeq(events []feedback.Event) int64 {
	if len(events) == 0 {
		return 0
	}
	return events[len(events)-1].Seq
}

// readAll polls Events while writers run, as a live feed does, each
// time after the last event it read and at most limit at a time, until
// it has read n events after seq start; it returns them, and an error
// for a seq that is not greater than the one before: an event must
// never become visible behind one already read. Events may become
// visible a little after their commit (while an older transaction of
// the database runs), so it waits up to 10 s for the last ones once
// the writers are done. It returns when the writers are done.
func readAll(f *fixture, ws string, start int64, n, limit int, writers *sync.WaitGroup) ([]feedback.Event, error) {
	done := make(chan struct{})
	go func() { writers.Wait(); close(done) }()
	defer func() { <-done }()
	var read []feedback.Event
	last := start
	var deadline time.Time
	for len(read) < n {
		select {
		case <-done:
			if deadline.IsZero() {
				deadline = time.Now().Add(10 * time.Second)
			}
		default:
		}
		got, err := f.s.Events(f.ctx(), ws, last, limit)
		if err != nil {
			return nil, err
		}
		for _, e := range got {
			if e.Seq <= last {
				return nil, fmt.Errorf("after seq %d the reader saw %d: an event became visible behind one already read", last, e.Seq)
			}
			last = e.Seq
		}
		read = append(read, got...)
		if !deadline.IsZero() && time.Now().After(deadline) {
			return nil, fmt.Errorf("writers are done but only %d of %d events were read", len(read), n)
		}
		if len(got) == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	return read, nil
}
