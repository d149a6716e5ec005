package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The lists whose totals stores keep in hourly counters.
const (
	hygieneList = "hygiene"
	reviewList  = "review responses"
	surveyList  = "survey responses"
)

// target is one of those lists with its filter: the hygiene submissions
// of one location, or of every location when scope is "", or the
// responses of one review or survey.
type target struct {
	list  string
	scope string // a location, review or survey id
}

func (tg target) String() string {
	if tg.scope == "" {
		return tg.list
	}
	return tg.list + " of " + tg.scope
}

// sent is a submission that a census stored.
type sent struct {
	target           // its list and its location, review or survey
	at     time.Time // its created_at, as stored
	id     string
}

// census stores submissions at the times its tests choose, in a
// workspace of three locations, two reviews and two surveys, and counts
// them by brute force, for comparing with the totals of the stores.
type census struct {
	f                           *fixture
	ws                          string
	locations, reviews, surveys []string
	sent                        []sent
}

func newCensus(f *fixture) *census {
	f.t.Helper()
	w := f.world("census")
	return &census{f: f, ws: w.ws,
		locations: []string{w.location, f.location(w.ws).ID, f.location(w.ws).ID},
		reviews:   []string{w.review, f.review(w.ws, feedback.StatusActive).ID},
		surveys:   []string{w.survey, f.survey(w.ws, feedback.StatusActive).ID},
	}
}

// series returns the targets that a submission is sent to: each list
// with each value of its filter.
func (c *census) series() []target {
	var out []target
	for _, l := range c.locations {
		out = append(out, target{hygieneList, l})
	}
	for _, r := range c.reviews {
		out = append(out, target{reviewList, r})
	}
	for _, s := range c.surveys {
		out = append(out, target{surveyList, s})
	}
	return out
}

// targets returns every list a census can read: the series and the
// hygiene submissions of every location.
func (c *census) targets() []target {
	return append(c.series(), target{hygieneList, ""})
}

// add stores a new submission to tg at the clock time at, which must be
// a new record.
func (c *census) add(tg target, at time.Time) {
	c.f.t.Helper()
	c.f.clock.Set(at)
	id := feedback.NewID()
	created, err := c.send(tg, id, []byte(id))
	c.f.must(err)
	if !created {
		c.f.t.Fatalf("a new submission to %v: created = false", tg)
	}
	c.record(tg, id)
}

// send stores a submission to the series tg at the clock's now; it is
// safe for concurrent use.
func (c *census) send(tg target, id string, hash []byte) (bool, error) {
	ctx, now := c.f.ctx(), feedback.NewTime(c.f.clock.Now())
	switch tg.list {
	case hygieneList:
		return c.f.s.AddHygiene(ctx, c.ws, &feedback.HygieneSubmission{ID: id, LocationID: tg.scope, Rating: 3,
			Language: "en", Source: feedback.SourceQR, CapturedAt: now}, hash)
	case reviewList:
		return c.f.s.AddReviewResponse(ctx, c.ws, &feedback.ReviewResponse{ID: id, ReviewID: tg.scope,
			LocationID: c.locations[0], Rating: 3, Language: "en", Source: feedback.SourceQR, CapturedAt: now}, hash)
	}
	return c.f.s.AddSurveyResponse(ctx, c.ws, &feedback.SurveyResponse{ID: id, SurveyID: tg.scope,
		LocationID: c.locations[0], Answers: map[string]any{"q1": 9.0}, Language: "en", Source: feedback.SourceQR,
		CapturedAt: now}, hash)
}

// record notes that the submission id to tg was stored at the clock's now.
func (c *census) record(tg target, id string) {
	c.sent = append(c.sent, sent{tg, c.f.clock.stored(), id})
}

// span is the from and to of a list; nil is no bound.
type span struct{ from, to *time.Time }

func (s span) String() string {
	bound := func(t *time.Time) string {
		if t == nil {
			return "none"
		}
		return t.Format(time.RFC3339Nano)
	}
	return "[" + bound(s.from) + ", " + bound(s.to) + ")"
}

// want returns the ids of what the census stored to tg within s, newest
// first, ties by id descending.
func (c *census) want(tg target, s span) []string {
	var in []sent
	for _, r := range c.sent {
		if r.list == tg.list && (tg.scope == "" || r.scope == tg.scope) &&
			(s.from == nil || !r.at.Before(*s.from)) && (s.to == nil || r.at.Before(*s.to)) {
			in = append(in, r)
		}
	}
	slices.SortFunc(in, func(a, b sent) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return strings.Compare(b.id, a.id)
	})
	ids := []string{}
	for _, r := range in {
		ids = append(ids, r.id)
	}
	return ids
}

// list reads a page of tg from the store.
func (c *census) list(tg target, p feedback.ListParams) ([]string, int, error) {
	ctx := c.f.ctx()
	switch tg.list {
	case hygieneList:
		p.LocationID = tg.scope
		return ids(c.f.s.HygieneSubmissions(ctx, c.ws, p))
	case reviewList:
		return ids(c.f.s.ReviewResponses(ctx, c.ws, tg.scope, p))
	}
	return ids(c.f.s.SurveyResponses(ctx, c.ws, tg.scope, p))
}

// check fails t unless the store's total of tg within s, and its page
// of per records, are what the census counts.
func (c *census) check(t *testing.T, tg target, s span, page, per int) {
	t.Helper()
	want := c.want(tg, s)
	got, total, err := c.list(tg, feedback.ListParams{Page: page, PerPage: per, From: s.from, To: s.to})
	if err != nil {
		t.Errorf("%v within %v: %v", tg, s, err)
		return
	}
	if total != len(want) {
		t.Errorf("%v within %v: total %d, want %d", tg, s, total, len(want))
	}
	lo, hi := min((page-1)*per, len(want)), min(page*per, len(want))
	wantEqual(t, fmt.Sprintf("%v within %v, page %d of %d", tg, s, page, per), want[lo:hi], got)
}
