package feedback_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestReasonsAreStructured: a rejected submission says each reason as a
// rule with its arguments, for pages in other languages, while the
// English reason the API answers stays what it was.
func TestReasonsAreStructured(t *testing.T) {
	body := `{"id":"x","rating":9,"tags":["wet"],"comment":"` + strings.Repeat("é", 601) + `"}`
	s := decode(t, body)
	params := feedback.ErrorParams(s.Validate(feedback.FormHygiene, nil, now))
	want := []feedback.InvalidParam{
		{Name: "id", Reason: "must be a UUID", Rule: feedback.RuleUUID},
		{Name: "rating", Reason: "must be an integer from 1 to 5", Rule: feedback.RuleIntRange, Args: []string{"1", "5"}},
		{Name: "tags[0]", Reason: "must be one of no_soap, no_paper, dirty_floor, dirty_toilet, bad_smell, out_of_order", Rule: feedback.RuleTag},
		{Name: "comment", Reason: "must be at most 500 characters (got 601)", Rule: feedback.RuleMaxChars, Args: []string{"500", "601"}},
	}
	if !slices.EqualFunc(params, want, sameParam) {
		t.Errorf("params = %+v\nwant %+v", params, want)
	}
	b, _ := json.Marshal(params[1])
	if string(b) != `{"name":"rating","reason":"must be an integer from 1 to 5"}` {
		t.Errorf("an invalid param goes on the wire as %s", b)
	}
}

func TestReasonsOfSurveyAnswers(t *testing.T) {
	s := decode(t, `{"id":"`+subID+`","answers":{"m":["a","z"],"t":"`+strings.Repeat("x", 2001)+`"}}`)
	params := feedback.ErrorParams(s.Validate(feedback.FormSurvey, testSurvey(), now))
	for _, want := range []feedback.InvalidParam{
		{Name: "answers.r", Reason: "is required", Rule: feedback.RuleRequired},
		{Name: "answers.m", Reason: `holds "z", which is not an option of the question`, Rule: feedback.RuleNotOption, Args: []string{`"z"`}},
		{Name: "answers.t", Reason: "must be at most 2000 characters (got 2001)", Rule: feedback.RuleMaxChars, Args: []string{"2000", "2001"}},
	} {
		if !slices.ContainsFunc(params, func(p feedback.InvalidParam) bool { return sameParam(p, want) }) {
			t.Errorf("params %+v lack %+v", params, want)
		}
	}
}

// TestRuleTexts: every rule has an English text whose verbs its
// arguments fill.
func TestRuleTexts(t *testing.T) {
	for _, r := range feedback.Rules() {
		n := strings.Count(feedback.RuleText(r), "%!s(MISSING)")
		args := make([]string, n)
		text := feedback.RuleText(r, args...)
		if text == "" || strings.Contains(text, "%!") {
			t.Errorf("rule %s reads %q with %d arguments", r, text, n)
		}
	}
}

func sameParam(a, b feedback.InvalidParam) bool {
	return a.Name == b.Name && a.Reason == b.Reason && a.Rule == b.Rule && slices.Equal(a.Args, b.Args)
}
