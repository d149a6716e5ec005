package storetest

import (
	"sort"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func testSummary(t *testing.T, h harness) {
	h.run(t, "Counts", testSummaryCounts)
	h.run(t, "Empty", testSummaryEmpty)
}

// testSummaryCounts stores submissions of every kind at two locations,
// inside a day and on both sides of its bounds, and in another
// workspace: the summary counts those of the day, from inclusive and to
// exclusive, per location, a deleted location included.
func testSummaryCounts(t *testing.T, f *fixture) {
	w := f.world("sum")
	other := f.world("sum-other")
	lobby := f.location(w.ws).ID
	from := T0.Add(24 * time.Hour).Truncate(24 * time.Hour)
	to := from.Add(24 * time.Hour)

	at := func(tm time.Time) { f.clock.Set(tm) }
	hygiene := func(ws, location string, rating int) {
		f.t.Helper()
		h := &feedback.HygieneSubmission{Rating: rating, LocationID: location, Language: "en", Source: feedback.SourceQR,
			CapturedAt: feedback.NewTime(f.clock.Now())}
		_, err := f.s.AddHygiene(f.ctx(), ws, h, []byte(feedback.NewID()))
		f.must(err)
	}
	review := func(location string, rating int) {
		f.t.Helper()
		r := &feedback.ReviewResponse{ReviewID: w.review, LocationID: location, Rating: rating, Language: "en",
			Source: feedback.SourceQR, CapturedAt: feedback.NewTime(f.clock.Now())}
		_, err := f.s.AddReviewResponse(f.ctx(), w.ws, r, []byte(feedback.NewID()))
		f.must(err)
	}
	survey := func(location string) {
		f.t.Helper()
		r := &feedback.SurveyResponse{SurveyID: w.survey, LocationID: location, Answers: map[string]any{"q1": 4.0},
			Language: "en", Source: feedback.SourceQR, CapturedAt: feedback.NewTime(f.clock.Now())}
		_, err := f.s.AddSurveyResponse(f.ctx(), w.ws, r, []byte(feedback.NewID()))
		f.must(err)
	}

	at(from.Add(-time.Microsecond)) // the day before
	hygiene(w.ws, w.location, 1)
	review(lobby, 1)
	at(from) // the first microsecond counts
	hygiene(w.ws, w.location, 4)
	at(from.Add(9 * time.Hour))
	hygiene(w.ws, w.location, 5)
	hygiene(w.ws, w.location, 3)
	hygiene(other.ws, other.location, 2)
	review(lobby, 2)
	review(lobby, 5)
	survey(w.location)
	survey(lobby)
	survey(lobby)
	at(to.Add(-time.Microsecond)) // the last microsecond counts
	review(w.location, 4)
	at(to) // the next day
	hygiene(w.ws, lobby, 5)
	survey(w.location)
	f.must(f.s.DeleteLocation(f.ctx(), w.ws, lobby))

	got, err := f.s.Summary(f.ctx(), w.ws, from, to)
	f.must(err)
	want := []feedback.LocationSummary{
		{LocationID: w.location, Hygiene: feedback.RatingSummary{Count: 3, RatingSum: 12},
			ReviewResponses: feedback.RatingSummary{Count: 1, RatingSum: 4}, SurveyResponses: 1},
		{LocationID: lobby, ReviewResponses: feedback.RatingSummary{Count: 2, RatingSum: 7}, SurveyResponses: 2},
	}
	sort.Slice(want, func(i, j int) bool { return want[i].LocationID < want[j].LocationID })
	wantEqual(t, "the day's summary", want, got)

	got, err = f.s.Summary(f.ctx(), other.ws, from, to)
	f.must(err)
	wantEqual(t, "the other workspace's summary", []feedback.LocationSummary{
		{LocationID: other.location, Hygiene: feedback.RatingSummary{Count: 1, RatingSum: 2}},
	}, got)
}

// testSummaryEmpty: a range without submissions, and a workspace that
// does not exist, summarise to an empty list.
func testSummaryEmpty(t *testing.T, f *fixture) {
	w := f.world("sum-empty")
	f.hygiene(w.ws, w.location)
	for _, ws := range []string{w.ws, feedback.NewID(), "not-an-id"} {
		got, err := f.s.Summary(f.ctx(), ws, T0.Add(time.Hour), T0.Add(2*time.Hour))
		f.must(err)
		if got == nil || len(got) != 0 {
			t.Errorf("Summary(%s) of an empty range = %#v, want an empty list", ws, got)
		}
	}
}
