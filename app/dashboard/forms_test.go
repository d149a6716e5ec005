package dashboard

import (
	"slices"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestFormsRoutes(t *testing.T) {
	for path, want := range map[string]string{
		"/w/demo/reviews": "reviews", "/w/demo/surveys": "surveys", "/w/demo/survey": "survey", "/w/demo/responses": "responses",
	} {
		slug, r, ok := parsePath(path)
		if !ok || slug != "demo" || r == nil || r.name != want {
			t.Errorf("parsePath(%q) = %q, %v, %v; want demo, the %s page", path, slug, r, ok, want)
		}
	}
	if got := responsesPath("demo", feedback.FormSurvey, "a b"); got != "/w/demo/responses?survey=a+b" {
		t.Errorf("responsesPath = %q", got)
	}
}

func TestMoves(t *testing.T) {
	tests := []struct {
		name string
		from feedback.Status
		want []feedback.Status
	}{
		{"Draft", feedback.StatusDraft, []feedback.Status{feedback.StatusActive, feedback.StatusArchived}},
		{"Active", feedback.StatusActive, []feedback.Status{feedback.StatusPaused, feedback.StatusClosed, feedback.StatusArchived}},
		{"Paused", feedback.StatusPaused, []feedback.Status{feedback.StatusActive, feedback.StatusClosed, feedback.StatusArchived}},
		{"Closed", feedback.StatusClosed, []feedback.Status{feedback.StatusArchived}},
		{"Archived", feedback.StatusArchived, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := moves(tt.from); !slices.Equal(got, tt.want) {
				t.Errorf("moves(%s) = %v, want %v", tt.from, got, tt.want)
			}
		})
	}
}

func TestAnswerText(t *testing.T) {
	choice := feedback.Question{Type: feedback.QuestionMultiChoice, Options: []feedback.Option{
		{ID: "a", Labels: feedback.Labels{"en": "Work"}}, {ID: "b", Labels: feedback.Labels{"de": "Freizeit"}}}}
	tests := []struct {
		name string
		q    feedback.Question
		v    any
		want string
	}{
		{"Rating", feedback.Question{Type: feedback.QuestionRating}, 4.0, "4 of 5"},
		{"NPS", feedback.Question{Type: feedback.QuestionNPS}, 0.0, "0 of 10"},
		{"Yes", feedback.Question{Type: feedback.QuestionYesNo}, true, "Yes"},
		{"Multi", choice, []any{"a", "b"}, "Work, Freizeit"},
		{"Single", feedback.Question{Type: feedback.QuestionSingleChoice, Options: choice.Options}, "a", "Work"},
		{"Text", feedback.Question{Type: feedback.QuestionText}, "fine", "fine"},
		{"Missing", feedback.Question{Type: feedback.QuestionText}, nil, "Not answered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := answerText(tt.q, tt.v); got != tt.want {
				t.Errorf("answerText = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFreshID(t *testing.T) {
	taken := map[string]bool{"q2": true, "q3": true}
	if got := freshID("q", 1, func(id string) bool { return taken[id] }); got != "q4" {
		t.Errorf("freshID = %q, want q4", got)
	}
}
