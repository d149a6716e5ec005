package storetest

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/google/go-cmp/cmp"
)

// fixture is one test's store and clock, with helpers that create records
// and fail the test when the store refuses.
type fixture struct {
	t     *testing.T
	s     server.Store
	clock *Clock
	rated int // the hygiene submissions of [fixture.rate]
}

func (f *fixture) ctx() context.Context { return f.t.Context() }

// world is a workspace holding one of everything a submission needs.
type world struct {
	ws       string
	location string
	review   string // active
	survey   string // active
	poster   string // a hygiene poster at location
}

func (f *fixture) world(slug string) world {
	f.t.Helper()
	w := world{ws: f.workspace(slug)}
	w.location = f.location(w.ws).ID
	w.review = f.review(w.ws, feedback.StatusActive).ID
	w.survey = f.survey(w.ws, feedback.StatusActive).ID
	w.poster = f.poster(w.ws, w.location, feedback.FormRef{Form: feedback.FormHygiene}).ID
	return w
}

func (f *fixture) workspace(slug string) string {
	f.t.Helper()
	w := &server.Workspace{Workspace: feedback.Workspace{Name: "Workspace " + slug, Slug: slug}, PosterKey: []byte("key-" + slug)}
	f.must(f.s.CreateWorkspace(f.ctx(), w))
	return w.ID
}

func (f *fixture) location(ws string) *feedback.Location {
	f.t.Helper()
	l := &feedback.Location{Name: "Restroom", Description: "Ground floor"}
	f.must(f.s.CreateLocation(f.ctx(), ws, l))
	return l
}

// review creates a review and moves it to status (draft or active).
func (f *fixture) review(ws string, status feedback.Status) *feedback.Review {
	f.t.Helper()
	r := &feedback.Review{Title: "How was your visit?"}
	f.must(f.s.CreateReview(f.ctx(), ws, r))
	if status == feedback.StatusDraft {
		return r
	}
	r, err := f.s.UpdateReview(f.ctx(), ws, r.ID, feedback.ReviewInput{Status: &status})
	f.must(err)
	return r
}

// survey creates a survey of two questions and moves it to status.
func (f *fixture) survey(ws string, status feedback.Status) *feedback.Survey {
	f.t.Helper()
	s := &feedback.Survey{Title: "Tell us more", Questions: questions()}
	f.must(f.s.CreateSurvey(f.ctx(), ws, s))
	if status == feedback.StatusDraft {
		return s
	}
	s, err := f.s.UpdateSurvey(f.ctx(), ws, s.ID, feedback.SurveyInput{Status: &status})
	f.must(err)
	return s
}

func questions() []feedback.Question {
	return []feedback.Question{
		{ID: "q1", Type: feedback.QuestionNPS, Required: true, Labels: feedback.Labels{"en": "Would you recommend us?"}},
		{ID: "q2", Type: feedback.QuestionSingleChoice, Labels: feedback.Labels{"en": "Why?", "de": "Warum?"},
			Options: []feedback.Option{{ID: "o1", Labels: feedback.Labels{"en": "Clean"}}, {ID: "o2", Labels: feedback.Labels{"en": "Quick"}}}},
	}
}

func (f *fixture) poster(ws, location string, form feedback.FormRef) *server.Poster {
	f.t.Helper()
	p := &server.Poster{WorkspaceID: ws, Poster: feedback.Poster{LocationID: location, FormRef: form, Label: "Door"}}
	f.must(f.s.CreatePoster(f.ctx(), p))
	return p
}

// hygiene adds a hygiene submission at location.
func (f *fixture) hygiene(ws, location string) *feedback.HygieneSubmission {
	f.t.Helper()
	h, err := f.tryHygiene(ws, location)
	f.must(err)
	return h
}

// tryHygiene is hygiene for goroutines other than the test's.
func (f *fixture) tryHygiene(ws, location string) (*feedback.HygieneSubmission, error) {
	h := &feedback.HygieneSubmission{ID: feedback.NewID(), Rating: 4, LocationID: location, Tags: []string{feedback.TagNoSoap},
		Language: "en", Source: feedback.SourceQR, CapturedAt: feedback.NewTime(f.clock.Now())}
	_, err := f.s.AddHygiene(f.ctx(), ws, h, []byte(h.ID))
	return h, err
}

// events returns every event of the workspace.
func (f *fixture) events(ws string) []feedback.Event {
	f.t.Helper()
	e, err := f.s.Events(f.ctx(), ws, 0, 1000)
	f.must(err)
	return e
}

func (f *fixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// concurrently calls fn(0) to fn(n-1) at once and counts their outcomes
// by error code, "" for nil. An error of a code not in codes fails t.
func concurrently(t *testing.T, n int, fn func(i int) error, codes ...string) map[string]int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	got := map[string]int{}
	for i := range n {
		wg.Go(func() {
			err := fn(i)
			mu.Lock()
			defer mu.Unlock()
			code := feedback.ErrorCode(err)
			if err != nil && !slices.Contains(codes, code) {
				t.Errorf("concurrent call %d: %v", i, err)
			}
			got[code]++
		})
	}
	wg.Wait()
	return got
}

// wantCode fails t unless err carries code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := feedback.ErrorCode(err); got != code {
		t.Errorf("got error %v (code %q), want code %q", err, got, code)
	}
}

// wantParams fails t unless err names exactly the invalid params names.
func wantParams(t *testing.T, err error, names ...string) {
	t.Helper()
	var got []string
	for _, p := range feedback.ErrorParams(err) {
		got = append(got, p.Name)
	}
	if diff := cmp.Diff(names, got); diff != "" {
		t.Errorf("invalid params of %v (-want +got):\n%s", err, diff)
	}
}

// wantEqual fails t with a diff unless got equals want.
func wantEqual(t *testing.T, what string, want, got any, opts ...cmp.Option) {
	t.Helper()
	if diff := cmp.Diff(want, got, opts...); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

// wantJSON fails t unless data is the JSON encoding of want, as values:
// stores may space and order keys their own way.
func wantJSON(t *testing.T, what string, want any, data json.RawMessage) {
	t.Helper()
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var w, g any
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("%s: %v in %s", what, err, data)
	}
	wantEqual(t, what, w, g)
}
