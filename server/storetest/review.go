package storetest

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func testReview(t *testing.T, h harness) {
	h.run(t, "Create", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		r := &feedback.Review{Title: "Visit", Status: feedback.StatusActive}
		f.must(f.s.CreateReview(f.ctx(), ws, r))
		now := feedback.Time{Time: f.clock.stored()}
		want := feedback.Review{ID: r.ID, Title: "Visit", Status: feedback.StatusDraft, CreatedAt: now, UpdatedAt: now, StatusChangedAt: now}
		wantEqual(t, "the argument after CreateReview (always a draft)", want, *r)
		got, err := f.s.Review(f.ctx(), ws, r.ID)
		f.must(err)
		wantEqual(t, "Review", want, *got)
		wantCode(t, f.s.CreateReview(f.ctx(), feedback.NewID(), &feedback.Review{Title: "x"}), feedback.ENotFound)
	})
	h.run(t, "Transitions", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		const (
			draft    = feedback.StatusDraft
			active   = feedback.StatusActive
			paused   = feedback.StatusPaused
			closed   = feedback.StatusClosed
			archived = feedback.StatusArchived
		)
		tests := []struct {
			name string
			path []feedback.Status // moves made first
			to   feedback.Status
			ok   bool
		}{
			{"draft to active", nil, active, true},
			{"draft to paused", nil, paused, false},
			{"draft to closed", nil, closed, false},
			{"draft to archived", nil, archived, true},
			{"active to paused", []feedback.Status{active}, paused, true},
			{"paused to active", []feedback.Status{active, paused}, active, true},
			{"active to closed", []feedback.Status{active}, closed, true},
			{"paused to closed", []feedback.Status{active, paused}, closed, true},
			{"active to draft", []feedback.Status{active}, draft, false},
			{"closed to active", []feedback.Status{active, closed}, active, false},
			{"closed to archived", []feedback.Status{active, closed}, archived, true},
			{"archived to active", []feedback.Status{archived}, active, false},
		}
		for _, tt := range tests {
			r := f.review(ws, draft)
			for _, s := range tt.path {
				_, err := f.s.UpdateReview(f.ctx(), ws, r.ID, feedback.ReviewInput{Status: &s})
				f.must(err)
			}
			before, err := f.s.Review(f.ctx(), ws, r.ID)
			f.must(err)
			events := len(f.events(ws))
			f.clock.Add(time.Minute)
			got, err := f.s.UpdateReview(f.ctx(), ws, r.ID, feedback.ReviewInput{Status: &tt.to})
			after, _ := f.s.Review(f.ctx(), ws, r.ID)
			if !tt.ok {
				wantCode(t, err, feedback.EInvalidTransition)
				wantEqual(t, tt.name+": the review after a refused move", *before, *after)
				if n := len(f.events(ws)); n != events {
					t.Errorf("%s: a refused move wrote %d events", tt.name, n-events)
				}
				continue
			}
			f.must(err)
			now := feedback.Time{Time: f.clock.stored()}
			want := *before
			want.Status, want.StatusChangedAt, want.UpdatedAt = tt.to, now, now
			wantEqual(t, tt.name+": UpdateReview", want, *got)
			wantEqual(t, tt.name+": Review after the move", want, *after)
			all := f.events(ws)
			if len(all) != events+1 {
				t.Fatalf("%s: the move wrote %d events, want 1", tt.name, len(all)-events)
			}
			e := all[len(all)-1]
			if e.Type != feedback.EventReviewStatusChanged || !e.Timestamp.Equal(now.Time) {
				t.Errorf("%s: event %s at %v, want %s at %v", tt.name, e.Type, e.Timestamp, feedback.EventReviewStatusChanged, now)
			}
			wantJSON(t, tt.name+": event data", feedback.StatusChange{Review: want, PreviousStatus: before.Status}, e.Data)
		}
	})
	h.run(t, "SameStatus", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		r := f.review(ws, feedback.StatusActive)
		events := len(f.events(ws))
		f.clock.Add(time.Minute)
		active := feedback.StatusActive
		got, err := f.s.UpdateReview(f.ctx(), ws, r.ID, feedback.ReviewInput{Status: &active})
		f.must(err)
		wantEqual(t, "UpdateReview to the current status", *r, *got)
		if n := len(f.events(ws)); n != events {
			t.Errorf("setting the current status wrote %d events, want none", n-events)
		}
	})
	h.run(t, "Title", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		r := f.review(ws, feedback.StatusActive)
		events := len(f.events(ws))
		f.clock.Add(time.Minute)
		title, active := "New title", feedback.StatusActive
		got, err := f.s.UpdateReview(f.ctx(), ws, r.ID, feedback.ReviewInput{Title: &title, Status: &active})
		f.must(err)
		want := *r
		want.Title, want.UpdatedAt = title, feedback.Time{Time: f.clock.stored()}
		wantEqual(t, "UpdateReview of the title", want, *got)
		stored, err := f.s.Review(f.ctx(), ws, r.ID)
		f.must(err)
		wantEqual(t, "Review after the update", want, *stored)
		if n := len(f.events(ws)); n != events {
			t.Errorf("a title change wrote %d events, want none", n-events)
		}
	})
	h.run(t, "ConcurrentTransitions", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		r := f.review(ws, feedback.StatusActive)
		targets := []feedback.Status{feedback.StatusPaused, feedback.StatusActive, feedback.StatusClosed}
		var wg sync.WaitGroup
		for i := range 60 {
			wg.Go(func() {
				_, err := f.s.UpdateReview(f.ctx(), ws, r.ID, feedback.ReviewInput{Status: &targets[i%len(targets)]})
				if code := feedback.ErrorCode(err); code != "" && code != feedback.EInvalidTransition {
					t.Errorf("concurrent UpdateReview: %v", err)
				}
			})
		}
		wg.Wait()
		// Each status change must start where the one before it ended.
		status := feedback.StatusDraft
		for _, e := range f.events(ws) {
			var c feedback.StatusChange
			f.must(json.Unmarshal(e.Data, &c))
			if c.PreviousStatus != status || !c.PreviousStatus.CanBecome(c.Review.Status) {
				t.Errorf("event %d: %s to %s, but the review was %s", e.Seq, c.PreviousStatus, c.Review.Status, status)
			}
			status = c.Review.Status
		}
		got, err := f.s.Review(f.ctx(), ws, r.ID)
		f.must(err)
		if got.Status != status {
			t.Errorf("the review is %s, but the last event says %s", got.Status, status)
		}
	})
	h.run(t, "NotFound", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		f.review(ws, feedback.StatusDraft)
		title := "x"
		for _, id := range []string{feedback.NewID(), "nope"} {
			_, err := f.s.Review(f.ctx(), ws, id)
			wantCode(t, err, feedback.ENotFound)
			_, err = f.s.UpdateReview(f.ctx(), ws, id, feedback.ReviewInput{Title: &title})
			wantCode(t, err, feedback.ENotFound)
		}
	})
}
