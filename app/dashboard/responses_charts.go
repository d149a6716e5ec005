package dashboard

import (
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/chart"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// renderResults is the charts of the filter's responses: for a review,
// its ratings and their trend; for a survey, the responses per day and
// a chart per question.
func (p *responsesPage) renderResults() app.UI {
	s := &p.stats
	return app.Section().ID("results").Class("results").Aria("labelledby", "results-title").Body(
		app.H2().ID("results-title").Text("Results"),
		problemBox("results-problem", s.problem),
		app.If(s.review != nil, func() app.UI { return p.renderReviewResults(s.review) }),
		app.If(s.survey != nil, func() app.UI { return p.renderSurveyResults(s.survey) }),
		app.If(s.review == nil && s.survey == nil && s.problem == "", func() app.UI {
			return app.P().Class("hint").Text("Loading the results…")
		}),
	)
}

func (p *responsesPage) renderReviewResults(r *feedback.ReviewStats) app.UI {
	avg := "no ratings"
	if r.Total.Average != nil {
		avg = "average " + chart.Number(*r.Total.Average) + " of 5"
	}
	t := chart.Trend{ID: "results-trend", Unit: "Average rating", Min: 1, Max: 5, Extra: []string{"Responses"},
		Caption: "Average rating per " + p.stats.unit()}
	byKey := map[string]feedback.RatingStats{}
	for _, b := range r.Buckets {
		byKey[p.stats.key(b.Start)] = b.RatingStats
	}
	for _, k := range p.stats.keys(starts(r.Buckets, func(b feedback.RatingBucket) feedback.Time { return b.Start })) {
		b, ok := byKey[k.key]
		pt := chart.Point{Label: k.label, Missing: !ok || b.Average == nil}
		if !pt.Missing {
			pt.Value = *b.Average
		}
		t.Points, t.ExtraCells = append(t.Points, pt), append(t.ExtraCells, []string{strconv.Itoa(b.Count)})
	}
	return app.Div().Class("insight-charts").Body(
		app.P().ID("results-summary").Class("chart-wide").Text(strconv.Itoa(r.Total.Count)+" responses, "+avg+"."),
		ratingBars("results-ratings", "Ratings", r.Total.Distribution),
		t.Render(),
	)
}

func (p *responsesPage) renderSurveyResults(s *feedback.SurveyStats) app.UI {
	t := chart.Trend{ID: "results-trend", Unit: "Responses", Caption: "Responses per " + p.stats.unit()}
	byKey := map[string]int{}
	for _, b := range s.Buckets {
		byKey[p.stats.key(b.Start)] = b.Count
	}
	for _, k := range p.stats.keys(starts(s.Buckets, func(b feedback.CountBucket) feedback.Time { return b.Start })) {
		t.Points = append(t.Points, chart.Point{Label: k.label, Value: float64(byKey[k.key])})
	}
	questions := map[string]*feedback.Question{}
	if p.survey != nil {
		for i := range p.survey.Questions {
			questions[p.survey.Questions[i].ID] = &p.survey.Questions[i]
		}
	}
	charts := []app.UI{
		app.P().ID("results-summary").Class("chart-wide").Text(strconv.Itoa(s.Responses) + " responses."),
		t.Render(),
	}
	for i := range s.Questions {
		charts = append(charts, questionChart(i, &s.Questions[i], questions[s.Questions[i].QuestionID]))
	}
	return app.Div().Class("insight-charts").Body(charts...)
}

// questionChart is the chart of one question's answers: bars of the
// ratings, scores, choices or yes and no; a gauge beside an NPS's
// scores; only the count of a text question.
func questionChart(i int, s *feedback.QuestionStats, q *feedback.Question) app.UI {
	id := "question-" + strconv.Itoa(i+1)
	name := "Question " + strconv.Itoa(i+1)
	if q != nil {
		name += ": " + q.Labels.Label("en")
	}
	name += " (" + strconv.Itoa(s.Responses) + " answers"
	if s.Average != nil {
		name += ", average " + chart.Number(*s.Average)
	}
	name += ")"
	b := chart.Bars{ID: id, Caption: name, Unit: "Answers"}
	switch s.Type {
	case feedback.QuestionRating:
		for r := 5; r >= 1; r-- {
			b.Bars = append(b.Bars, chart.Bar{Label: strconv.Itoa(r) + " of 5", Count: countAt(s.Distribution, r-1), Low: r <= 2})
		}
	case feedback.QuestionNPS:
		return npsChart(id, name, s)
	case feedback.QuestionSingleChoice, feedback.QuestionMultiChoice:
		for _, o := range options(q, s.Choices) {
			b.Bars = append(b.Bars, chart.Bar{Label: o.label, Count: s.Choices[o.id]})
		}
	case feedback.QuestionYesNo:
		b.Bars = []chart.Bar{{Label: "Yes", Count: deref(s.Yes)}, {Label: "No", Count: deref(s.No)}}
	default:
		return app.Figure().ID(id).Class("chart").Body(app.FigCaption().Class("chart-caption").Text(name),
			app.P().Class("hint").Text("Text answers: read them in the responses below."))
	}
	return b.Render()
}

// npsChart is an NPS question's gauge and its scores 0 to 10.
func npsChart(id, name string, s *feedback.QuestionStats) app.UI {
	b := chart.Bars{ID: id, Caption: "Scores", Unit: "Answers"}
	if s.NPS == nil { // no answers: a score of 0 would mislead
		for v := 10; v >= 0; v-- {
			b.Bars = append(b.Bars, chart.Bar{Label: strconv.Itoa(v), Low: v <= 6})
		}
		b.Caption = name
		return b.Render()
	}
	g := chart.Gauge{ID: id + "-gauge", Caption: name, Score: *s.NPS}
	for v := 10; v >= 0; v-- {
		n := countAt(s.Distribution, v)
		switch {
		case v >= 9:
			g.Promoters += n
		case v >= 7:
			g.Passives += n
		default:
			g.Detractors += n
		}
		b.Bars = append(b.Bars, chart.Bar{Label: strconv.Itoa(v), Count: n, Low: v <= 6})
	}
	return app.Div().Class("chart-pair").Body(g.Render(), b.Render())
}

// choice is an option of a question, for a bar.
type choice struct{ id, label string }

// options returns the question's options in its order, then any other
// option the answers name (one removed since).
func options(q *feedback.Question, counts map[string]int) []choice {
	var out []choice
	seen := map[string]bool{}
	if q != nil {
		for _, o := range q.Options {
			out, seen[o.ID] = append(out, choice{o.ID, o.Labels.Label("en")}), true
		}
	}
	var gone []string
	for id := range counts {
		if !seen[id] {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	for _, id := range gone {
		out = append(out, choice{id, id})
	}
	return out
}

// countAt returns dist[i], 0 when dist is shorter (no answers).
func countAt(dist []int, i int) int {
	if i < len(dist) {
		return dist[i]
	}
	return 0
}

func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

// starts returns the start of each bucket.
func starts[B any](bs []B, start func(B) feedback.Time) []feedback.Time {
	out := make([]feedback.Time, len(bs))
	for i, b := range bs {
		out[i] = start(b)
	}
	return out
}

// unit names the results' buckets.
func (s *formStats) unit() string {
	if s.days == nil {
		return "week"
	}
	return "day"
}

// key is the bucket's local date.
func (s *formStats) key(t feedback.Time) string { return s.zone.date(t.Time) }

// keys returns the chart's points: every day of the period, or in weeks
// the buckets that have responses.
func (s *formStats) keys(bucketStarts []feedback.Time) []day {
	if s.days != nil {
		return s.days
	}
	out := make([]day, 0, len(bucketStarts))
	for _, t := range bucketStarts {
		out = append(out, day{key: s.zone.date(t.Time), label: "Week of " + s.zone.label(t.Time), noon: t.Time})
	}
	return out
}
