package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// kind adapts one Add method and its list to the shared submission tests.
type kind struct {
	event string
	// add stores a record with id and rating, at w's location, poster and
	// form, and returns the argument as it is after the call.
	add func(f *fixture, w world, id string, rating int, hash []byte) (any, bool, error)
	// list returns a page of w's records of this kind and their total.
	list func(f *fixture, w world, p feedback.ListParams) ([]any, int, error)
}

func testAddHygiene(t *testing.T, h harness)        { testSubmissions(t, h, hygieneKind) }
func testAddReviewResponse(t *testing.T, h harness) { testSubmissions(t, h, reviewResponseKind) }
func testAddSurveyResponse(t *testing.T, h harness) { testSubmissions(t, h, surveyResponseKind) }

var hygieneKind = kind{
	event: feedback.EventHygieneSubmissionCreated,
	add: func(f *fixture, w world, id string, rating int, hash []byte) (any, bool, error) {
		s := &feedback.HygieneSubmission{ID: id, Rating: rating, LocationID: w.location, PosterID: w.poster,
			Tags: []string{feedback.TagNoSoap, feedback.TagBadSmell}, Comment: "Smells", Language: "de-CH",
			Source: feedback.SourceQR, CapturedAt: feedback.NewTime(f.clock.Now().Add(-time.Minute))}
		created, err := f.s.AddHygiene(f.ctx(), w.ws, s, hash)
		return *s, created, err
	},
	list: func(f *fixture, w world, p feedback.ListParams) ([]any, int, error) {
		return anys(f.s.HygieneSubmissions(f.ctx(), w.ws, p))
	},
}

var reviewResponseKind = kind{
	event: feedback.EventReviewResponseCreated,
	add: func(f *fixture, w world, id string, rating int, hash []byte) (any, bool, error) {
		r := &feedback.ReviewResponse{ID: id, ReviewID: w.review, LocationID: w.location, PosterID: w.poster, Rating: rating, Comment: "Fine",
			ContactEmail: "ann@example.com", ContactConsent: true, Language: "en", Source: feedback.SourceKiosk,
			DeviceID: "tablet-1", CapturedAt: feedback.NewTime(f.clock.Now().Add(-time.Hour))}
		created, err := f.s.AddReviewResponse(f.ctx(), w.ws, r, hash)
		return *r, created, err
	},
	list: func(f *fixture, w world, p feedback.ListParams) ([]any, int, error) {
		return anys(f.s.ReviewResponses(f.ctx(), w.ws, w.review, p))
	},
}

var surveyResponseKind = kind{
	event: feedback.EventSurveyResponseCreated,
	add: func(f *fixture, w world, id string, rating int, hash []byte) (any, bool, error) {
		r := &feedback.SurveyResponse{ID: id, SurveyID: w.survey, LocationID: w.location, PosterID: w.poster,
			Answers: map[string]any{"q1": float64(rating), "q2": "o1"}, Language: "fr", Source: feedback.SourceQR,
			CapturedAt: feedback.NewTime(f.clock.Now())}
		created, err := f.s.AddSurveyResponse(f.ctx(), w.ws, r, hash)
		return *r, created, err
	},
	list: func(f *fixture, w world, p feedback.ListParams) ([]any, int, error) {
		return anys(f.s.SurveyResponses(f.ctx(), w.ws, w.survey, p))
	},
}

// anys turns a typed page into a page of values, for the shared tests.
func anys[T any](items []T, total int, err error) ([]any, int, error) {
	out := make([]any, len(items))
	for i, v := range items {
		out[i] = v
	}
	return out, total, err
}

// all returns every record of k in w.
func (k kind) all(f *fixture, w world) []any {
	f.t.Helper()
	items, total, err := k.list(f, w, feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage})
	f.must(err)
	if total != len(items) {
		f.t.Errorf("list total %d, but %d items", total, len(items))
	}
	return items
}

// createdEvents returns the events of k's kind in w.
func (k kind) createdEvents(f *fixture, w world) []feedback.Event {
	var out []feedback.Event
	for _, e := range f.events(w.ws) {
		if e.Type == k.event {
			out = append(out, e)
		}
	}
	return out
}

// wantStored fails t unless w holds exactly records of k, each with its
// one created event.
func (k kind) wantStored(t *testing.T, f *fixture, w world, records ...any) {
	t.Helper()
	wantEqual(t, "the stored records", append([]any{}, records...), k.all(f, w))
	if n := len(k.createdEvents(f, w)); n != len(records) {
		t.Errorf("%d %s events, want %d", n, k.event, len(records))
	}
}

func testSubmissions(t *testing.T, h harness, k kind) {
	h.run(t, "Created", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		f.clock.Add(time.Minute)
		rec, created, err := k.add(f, w, feedback.NewID(), 4, []byte("h1"))
		f.must(err)
		if !created {
			t.Error("a new record: created = false, want true")
		}
		wantEqual(t, "the stored records", []any{rec}, k.all(f, w))
		events := k.createdEvents(f, w)
		if len(events) != 1 {
			t.Fatalf("%d %s events, want 1", len(events), k.event)
		}
		if !events[0].Timestamp.Equal(f.clock.stored()) {
			t.Errorf("event timestamp %v, want %v", events[0].Timestamp, f.clock.stored())
		}
		wantJSON(t, "event data", rec, events[0].Data)
	})
	h.run(t, "Idempotent", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		id := feedback.NewID()
		first, _, err := k.add(f, w, id, 2, []byte("same"))
		f.must(err)
		f.clock.Add(time.Minute)
		again, created, err := k.add(f, w, id, 5, []byte("same"))
		f.must(err)
		if created {
			t.Error("the same id and hash again: created = true, want false")
		}
		wantEqual(t, "the argument after the repeated add (the stored record)", first, again)
		k.wantStored(t, f, w, first)
	})
	h.run(t, "Conflict", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		id := feedback.NewID()
		first, _, err := k.add(f, w, id, 2, []byte("one"))
		f.must(err)
		_, created, err := k.add(f, w, id, 3, []byte("two"))
		wantCode(t, err, feedback.EIdempotencyConflict)
		if created {
			t.Error("a conflicting add reported created = true")
		}
		k.wantStored(t, f, w, first)
	})
	h.run(t, "Concurrent", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		id := feedback.NewID()
		const n = 20
		var mu sync.Mutex
		var wg sync.WaitGroup
		var winners []any
		for range n {
			wg.Go(func() {
				rec, created, err := k.add(f, w, id, 3, []byte("same"))
				if err != nil {
					t.Errorf("concurrent add: %v", err)
				}
				mu.Lock()
				defer mu.Unlock()
				if created {
					winners = append(winners, rec)
				}
			})
		}
		wg.Wait()
		if len(winners) != 1 {
			t.Fatalf("%d of %d concurrent adds of one id reported created, want 1", len(winners), n)
		}
		k.wantStored(t, f, w, winners[0])
	})
	h.run(t, "RevokedPoster", func(t *testing.T, f *fixture) {
		// The database refuses what the poster no longer takes, whatever
		// the caller believed of it (a cached view on another instance).
		w := f.world("acme")
		keptID := feedback.NewID()
		kept, created, err := k.add(f, w, keptID, 4, []byte("kept"))
		f.must(err)
		if !created {
			t.Fatal("the first submission was not created")
		}
		f.clock.Add(time.Minute)
		_, err = f.s.RevokePoster(f.ctx(), w.ws, w.poster)
		f.must(err)
		f.clock.Add(-time.Second) // every kind captures at or before its clock
		late, created, err := k.add(f, w, feedback.NewID(), 4, []byte("late"))
		if err != nil || !created {
			t.Errorf("captured before the revocation: created %v, %v; want accepted within the grace", created, err)
		}
		f.clock.Add(2 * time.Hour) // past what any kind captures before its clock
		_, _, err = k.add(f, w, feedback.NewID(), 4, []byte("after"))
		wantCode(t, err, feedback.EPosterRevoked)
		again, created, err := k.add(f, w, keptID, 4, []byte("kept"))
		if err != nil || created {
			t.Errorf("a repeat after the revocation: created %v, %v; want the stored record", created, err)
		}
		wantEqual(t, "the repeat after the revocation (the stored record)", kept, again)
		k.wantStored(t, f, w, late, kept)
	})
	h.run(t, "Missing", func(t *testing.T, f *fixture) {
		w := f.world("acme")
		other := f.world("other")
		cases := []struct {
			name  string
			world world
		}{
			{"unknown location", world{ws: w.ws, location: feedback.NewID(), review: w.review, survey: w.survey}},
			{"location of another workspace", world{ws: w.ws, location: other.location, review: w.review, survey: w.survey}},
			{"unknown poster", world{ws: w.ws, location: w.location, poster: feedback.NewID(), review: w.review, survey: w.survey}},
			{"unknown workspace", world{ws: feedback.NewID(), location: w.location, review: w.review, survey: w.survey}},
			{"form of another workspace", world{ws: w.ws, location: w.location, review: other.review, survey: other.survey}},
		}
		for _, c := range cases {
			if k.event == feedback.EventHygieneSubmissionCreated && c.name == "form of another workspace" {
				continue
			}
			_, _, err := k.add(f, c.world, feedback.NewID(), 3, []byte("h"))
			if feedback.ErrorCode(err) != feedback.ENotFound {
				t.Errorf("%s: got %v, want code %s", c.name, err, feedback.ENotFound)
			}
		}
		k.wantStored(t, f, w)
		_, _, err := k.add(f, w, "not-a-uuid", 3, []byte("h"))
		wantCode(t, err, feedback.EValidation)
	})
}
