package dashboard

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestQuestionCharts: each question type gets its chart, whose table
// holds the counts: an NPS's promoters, passives and detractors, the
// options by their labels (a removed option by its id), yes and no.
func TestQuestionCharts(t *testing.T) {
	nps, yes, no := 20, 3, 1
	q := &feedback.Question{ID: "q2", Type: feedback.QuestionSingleChoice, Labels: feedback.Labels{"en": "Which?"},
		Options: []feedback.Option{{ID: "a", Labels: feedback.Labels{"en": "Apples"}}, {ID: "b", Labels: feedback.Labels{"en": "Pears"}}}}
	for _, c := range []struct {
		name string
		s    feedback.QuestionStats
		q    *feedback.Question
		want []string
	}{
		{"NPS", feedback.QuestionStats{Type: feedback.QuestionNPS, Responses: 5, NPS: &nps, Distribution: []int{1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 2}},
			nil, []string{"Promoters (9–10)", ">2</td>", "net promoter score 20", "Detractors (0–6)"}},
		{"Choice", feedback.QuestionStats{Type: feedback.QuestionSingleChoice, Responses: 4, Choices: map[string]int{"a": 3, "b": 0, "z": 1}},
			q, []string{"Question 1: Which?", "Apples", "3 (75%)", "Pears", ">z<"}},
		{"YesNo", feedback.QuestionStats{Type: feedback.QuestionYesNo, Responses: 4, Yes: &yes, No: &no},
			nil, []string{"Yes", "75%", "No", "25%"}},
		{"Text", feedback.QuestionStats{Type: feedback.QuestionText, Responses: 2}, nil, []string{"(2 answers)", "Text answers"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			html := renderUI(t, questionChart(0, &c.s, c.q))
			for _, w := range c.want {
				if !strings.Contains(html, w) {
					t.Errorf("the chart lacks %q:\n%s", w, html)
				}
			}
		})
	}
}

// renderUI renders an element in a component of its own.
func renderUI(t *testing.T, ui app.UI) string {
	t.Helper()
	return render(t, &fixed{UI: ui})
}

// fixed is a component that renders a given element.
type fixed struct {
	app.Compo
	UI app.UI
}

func (f *fixed) Render() app.UI { return app.Div().Body(f.UI) }
