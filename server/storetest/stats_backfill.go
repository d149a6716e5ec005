package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// RunStatsBackfill checks that migrating a database fills the statistics
// of the submissions it already holds as the store keeps them: it stores
// hygiene ratings (every rating, tags, late syncs), review responses and
// survey responses of every question type, then undoes and redoes the
// migrations with remigrate (which backfills them) and compares every
// statistic with what the store answered before, and after one more
// submission of each kind.
func RunStatsBackfill(t *testing.T, open Opener, remigrate func(ctx context.Context, s server.Store) error) {
	f := harness{open}.fixture(t)
	w := f.world("stats-backfill")
	lobby := f.location(w.ws).ID
	survey := f.statsSurvey(w.ws)
	f.clock.Set(utc(11, 22, 12, 0))
	send := func(i int) {
		at := utc(11, 20, 0, 0).Add(time.Duration(i) * 37 * time.Minute)
		loc := []string{w.location, lobby}[i%2]
		f.rateAt(w.ws, loc, 1+i%5, at, feedback.HygieneTags[i%len(feedback.HygieneTags):i%len(feedback.HygieneTags)+i%2]...)
		r := &feedback.ReviewResponse{ReviewID: w.review, LocationID: loc, Rating: 1 + i%5, Language: "en",
			Source: feedback.SourceQR, CapturedAt: feedback.NewTime(at)}
		_, err := f.s.AddReviewResponse(f.ctx(), w.ws, r, []byte(feedback.NewID()))
		f.must(err)
		answers := map[string]any{"r": float64(1 + i%5), "n": float64(i % 11), "s": []string{"a", "b", "c"}[i%3],
			"m": []any{"a", "c"}[:1+i%2], "y": i%3 == 0, "t": "text"}
		if i%4 == 0 {
			answers = map[string]any{"n": 10.0}
		}
		sr := &feedback.SurveyResponse{SurveyID: survey, LocationID: loc, Answers: answers, Language: "en",
			Source: feedback.SourceQR, CapturedAt: feedback.NewTime(at)}
		_, err = f.s.AddSurveyResponse(f.ctx(), w.ws, sr, []byte(feedback.NewID()))
		f.must(err)
	}
	for i := range 60 {
		send(i)
	}
	snapshot := func() []any {
		var out []any
		q := statsQuery(utc(11, 19, 0, 0), utc(11, 23, 0, 0), feedback.BucketHour, "")
		for _, loc := range []string{"", w.location, lobby} {
			q.LocationID = loc
			h, err := f.s.HygieneStats(f.ctx(), w.ws, q)
			f.must(err)
			r, err := f.s.ReviewStats(f.ctx(), w.ws, w.review, q)
			f.must(err)
			s, err := f.s.SurveyStats(f.ctx(), w.ws, survey, q)
			f.must(err)
			out = append(out, h, r, s)
		}
		return out
	}
	before := snapshot()
	f.must(remigrate(f.ctx(), f.s))
	wantEqual(t, "the statistics after the backfill", before, snapshot())
	send(60)
	if after := snapshot(); after[0].(*feedback.HygieneStats).Total.Count != 61 {
		t.Errorf("after one more: %d ratings, want 61", after[0].(*feedback.HygieneStats).Total.Count)
	}
}
