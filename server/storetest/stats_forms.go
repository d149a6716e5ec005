package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// statsQuery is the query of [from, to) in buckets of bucket.
func statsQuery(from, to time.Time, bucket, location string) feedback.StatsQuery {
	return feedback.StatsQuery{From: feedback.NewTime(from), To: feedback.NewTime(to), Bucket: bucket, LocationID: location}
}

// testStatsReviews answers a review at two locations over two days: the
// review's total, its days and one location's part.
func testStatsReviews(t *testing.T, f *fixture) {
	w := f.world("stats-reviews")
	lobby := f.location(w.ws).ID
	other := f.review(w.ws, feedback.StatusActive).ID
	answer := func(review, location string, rating int, at time.Time) {
		r := &feedback.ReviewResponse{ReviewID: review, LocationID: location, Rating: rating, Language: "en",
			Source: feedback.SourceQR, CapturedAt: feedback.NewTime(at)}
		_, err := f.s.AddReviewResponse(f.ctx(), w.ws, r, []byte(feedback.NewID()))
		f.must(err)
	}
	answer(w.review, w.location, 5, utc(11, 19, 8, 0))
	answer(w.review, lobby, 4, utc(11, 19, 23, 59))
	answer(w.review, lobby, 1, utc(11, 20, 12, 0))
	answer(other, lobby, 2, utc(11, 20, 12, 0))
	q := statsQuery(utc(11, 19, 0, 0), utc(11, 21, 0, 0), feedback.BucketDay, "")
	st := rolledUp(f, w.ws, func() (*feedback.ReviewStats, error) { return f.s.ReviewStats(f.ctx(), w.ws, w.review, q) })
	wantEqual(t, "the total", rs(1, 0, 0, 1, 1), st.Total)
	wantEqual(t, "the days", []feedback.RatingBucket{
		{Start: feedback.NewTime(utc(11, 19, 0, 0)), RatingStats: rs(0, 0, 0, 1, 1)},
		{Start: feedback.NewTime(utc(11, 20, 0, 0)), RatingStats: rs(1, 0, 0, 0, 0)},
	}, st.Buckets)
	q.LocationID = lobby
	st = rolledUp(f, w.ws, func() (*feedback.ReviewStats, error) { return f.s.ReviewStats(f.ctx(), w.ws, w.review, q) })
	wantEqual(t, "the lobby's total", rs(1, 0, 0, 1, 0), st.Total)
}

// rs returns the rating statistics of a distribution (ratings 1 to 5).
func rs(dist ...int) feedback.RatingStats {
	r := feedback.RatingStats{}
	sum := 0
	for i, n := range dist {
		r.Distribution[i] = n
		r.Count += n
		sum += n * (i + 1)
	}
	if r.Count > 0 {
		avg := float64(sum) / float64(r.Count)
		r.Average = &avg
	}
	return r
}

// statsSurvey is a survey with a question of every type.
func (f *fixture) statsSurvey(ws string) string {
	f.t.Helper()
	en := func(s string) feedback.Labels { return feedback.Labels{"en": s} }
	opts := []feedback.Option{{ID: "a", Labels: en("A")}, {ID: "b", Labels: en("B")}, {ID: "c", Labels: en("C")}}
	sv := &feedback.Survey{Title: "Everything", Questions: []feedback.Question{
		{ID: "r", Type: feedback.QuestionRating, Labels: en("Rate")},
		{ID: "n", Type: feedback.QuestionNPS, Labels: en("Recommend")},
		{ID: "s", Type: feedback.QuestionSingleChoice, Labels: en("One"), Options: opts},
		{ID: "m", Type: feedback.QuestionMultiChoice, Labels: en("Many"), Options: opts},
		{ID: "y", Type: feedback.QuestionYesNo, Labels: en("Yes?")},
		{ID: "t", Type: feedback.QuestionText, Labels: en("Say")},
	}}
	f.must(f.s.CreateSurvey(f.ctx(), ws, sv))
	return sv.ID
}

// testStatsSurveys answers a survey of every question type four times
// over two days: per question the responses, distributions, averages,
// NPS, choices (multi_choice counts each option) and yes/no; text only
// counts responses.
func testStatsSurveys(t *testing.T, f *fixture) {
	w := f.world("stats-surveys")
	lobby := f.location(w.ws).ID
	survey := f.statsSurvey(w.ws)
	answer := func(location string, at time.Time, answers map[string]any) {
		r := &feedback.SurveyResponse{SurveyID: survey, LocationID: location, Answers: answers, Language: "en",
			Source: feedback.SourceQR, CapturedAt: feedback.NewTime(at)}
		_, err := f.s.AddSurveyResponse(f.ctx(), w.ws, r, []byte(feedback.NewID()))
		f.must(err)
	}
	answer(w.location, utc(11, 19, 8, 0), map[string]any{"r": 5.0, "n": 10.0, "s": "a", "m": []any{"a", "b"}, "y": true, "t": "great"})
	answer(w.location, utc(11, 19, 9, 0), map[string]any{"r": 3.0, "n": 6.0, "s": "b", "m": []any{"b"}, "y": false})
	answer(lobby, utc(11, 20, 8, 0), map[string]any{"r": 4.0, "n": 9.0, "y": true})
	answer(lobby, utc(11, 20, 9, 0), map[string]any{"n": 8.0})
	st := rolledUp(f, w.ws, func() (*feedback.SurveyStats, error) {
		return f.s.SurveyStats(f.ctx(), w.ws, survey, statsQuery(utc(11, 19, 0, 0), utc(11, 21, 0, 0), "", ""))
	})
	wantEqual(t, "the responses", 4, st.Responses)
	wantEqual(t, "the days", []feedback.CountBucket{{Start: feedback.NewTime(utc(11, 19, 0, 0)), Count: 2},
		{Start: feedback.NewTime(utc(11, 20, 0, 0)), Count: 2}}, st.Buckets)
	avg := func(v float64) *float64 { return &v }
	num := func(v int) *int { return &v }
	wantEqual(t, "the questions", []feedback.QuestionStats{
		{QuestionID: "r", Type: feedback.QuestionRating, Responses: 3, Distribution: []int{0, 0, 1, 1, 1}, Average: avg(4)},
		{QuestionID: "n", Type: feedback.QuestionNPS, Responses: 4, Distribution: []int{0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1},
			Average: avg(8.25), NPS: num(25)},
		{QuestionID: "s", Type: feedback.QuestionSingleChoice, Responses: 2, Choices: map[string]int{"a": 1, "b": 1, "c": 0}},
		{QuestionID: "m", Type: feedback.QuestionMultiChoice, Responses: 2, Choices: map[string]int{"a": 1, "b": 2, "c": 0}},
		{QuestionID: "y", Type: feedback.QuestionYesNo, Responses: 3, Yes: num(2), No: num(1)},
		{QuestionID: "t", Type: feedback.QuestionText, Responses: 1},
	}, st.Questions)

	st = rolledUp(f, w.ws, func() (*feedback.SurveyStats, error) {
		return f.s.SurveyStats(f.ctx(), w.ws, survey, statsQuery(utc(11, 19, 0, 0), utc(11, 21, 0, 0), "", lobby))
	})
	wantEqual(t, "the lobby's responses", 2, st.Responses)
	wantEqual(t, "the lobby's NPS", num(50), st.Questions[1].NPS)
}

// testStatsIsolation checks that another workspace sees none of the
// statistics and finds none of the ids.
func testStatsIsolation(t *testing.T, f *fixture) {
	w := f.world("stats-mine")
	other := f.world("stats-theirs")
	f.rateAt(w.ws, w.location, 1, utc(11, 20, 9, 0))
	q := statsQuery(utc(11, 20, 0, 0), utc(11, 21, 0, 0), "", "")
	st, err := f.s.HygieneStats(f.ctx(), other.ws, q)
	f.must(err)
	wantEqual(t, "their count", 0, st.Total.Count)
	locs, err := f.s.LocationStats(f.ctx(), other.ws, q)
	f.must(err)
	wantEqual(t, "their locations", 0, len(locs.Locations))
	q.LocationID = w.location
	_, err = f.s.HygieneStats(f.ctx(), other.ws, q)
	wantCode(t, err, feedback.ENotFound)
	_, err = f.s.ReviewStats(f.ctx(), other.ws, other.review, q)
	wantCode(t, err, feedback.ENotFound)
	q.LocationID = ""
	_, err = f.s.ReviewStats(f.ctx(), other.ws, w.review, q)
	wantCode(t, err, feedback.ENotFound)
	_, err = f.s.SurveyStats(f.ctx(), other.ws, w.survey, q)
	wantCode(t, err, feedback.ENotFound)
	_, err = f.s.SurveyStats(f.ctx(), other.ws, "not-an-id", q)
	wantCode(t, err, feedback.ENotFound)
}

// testStatsInvalid asks for ranges and buckets that no query may have.
func testStatsInvalid(t *testing.T, f *fixture) {
	w := f.world("stats-invalid")
	from := utc(11, 20, 0, 0)
	for name, q := range map[string]feedback.StatsQuery{
		"EmptyRange":    statsQuery(from, from, "", ""),
		"Backwards":     statsQuery(from, from.Add(-time.Hour), "", ""),
		"TooLong":       statsQuery(from, from.Add(feedback.MaxStatsSpan+time.Hour), "", ""),
		"UnknownBucket": statsQuery(from, from.Add(time.Hour), "month", ""),
	} {
		_, err := f.s.HygieneStats(f.ctx(), w.ws, q)
		if feedback.ErrorCode(err) != feedback.EValidation {
			t.Errorf("%s: got %v, want a validation error", name, err)
		}
	}
	_, err := f.s.HygieneStats(f.ctx(), w.ws, statsQuery(from, from.Add(feedback.MaxStatsSpan), feedback.BucketHour, ""))
	f.must(err)
}

// testStatsSettings reads the default time zone, refuses unknown zones
// and keeps a known one, for one workspace only.
func testStatsSettings(t *testing.T, f *fixture) {
	w := f.world("stats-settings")
	other := f.world("stats-settings-other")
	got, err := f.s.WorkspaceSettings(f.ctx(), w.ws)
	f.must(err)
	wantEqual(t, "the default", feedback.WorkspaceSettings{TimeZone: "UTC"}, *got)
	for _, zone := range []string{"", "Mars/Olympus", "Local", "../../etc/passwd"} {
		_, err = f.s.UpdateWorkspaceSettings(f.ctx(), w.ws, feedback.WorkspaceSettings{TimeZone: zone})
		wantCode(t, err, feedback.EValidation)
	}
	_, err = f.s.UpdateWorkspaceSettings(f.ctx(), w.ws, feedback.WorkspaceSettings{TimeZone: "Asia/Kolkata"})
	f.must(err)
	got, err = f.s.WorkspaceSettings(f.ctx(), w.ws)
	f.must(err)
	wantEqual(t, "the new zone", "Asia/Kolkata", got.TimeZone)
	got, err = f.s.WorkspaceSettings(f.ctx(), other.ws)
	f.must(err)
	wantEqual(t, "the other's zone", "UTC", got.TimeZone)
	_, err = f.s.WorkspaceSettings(f.ctx(), feedback.NewID())
	wantCode(t, err, feedback.ENotFound)
}
