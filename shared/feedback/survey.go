package feedback

import (
	"fmt"
	"regexp"
)

// Survey is an ordered list of questions. Its status follows the same
// state machine as a review; questions can be edited only while it is a
// draft, so that stored answers always match the questions they answer.
type Survey struct {
	ID              string     `json:"id"`
	Title           string     `json:"title"`
	Status          Status     `json:"status"`
	Questions       []Question `json:"questions"`
	CreatedAt       Time       `json:"created_at"`
	UpdatedAt       Time       `json:"updated_at"`
	StatusChangedAt Time       `json:"status_changed_at"`
}

// QuestionType is the kind of answer a question expects.
type QuestionType string

// The question types and the answers they take.
const (
	QuestionRating       QuestionType = "rating"        // integer 1..5
	QuestionNPS          QuestionType = "nps"           // integer 0..10
	QuestionSingleChoice QuestionType = "single_choice" // one option id
	QuestionMultiChoice  QuestionType = "multi_choice"  // a list of distinct option ids
	QuestionText         QuestionType = "text"          // free text up to MaxAnswerText characters
	QuestionYesNo        QuestionType = "yes_no"        // true or false
)

// Labels maps a language tag (en, de, fr, ...) to a text in that language.
type Labels map[string]string

// Question is one question of a survey.
type Question struct {
	ID       string       `json:"id"`
	Type     QuestionType `json:"type"`
	Required bool         `json:"required"`
	Labels   Labels       `json:"labels"`
	Options  []Option     `json:"options,omitempty"`
}

// Option is one choice of a single_choice or multi_choice question.
type Option struct {
	ID     string `json:"id"`
	Labels Labels `json:"labels"`
}

// Survey limits.
const (
	MaxQuestions  = 50
	MaxOptions    = 20
	MaxLabel      = 500
	MaxAnswerText = 2000
)

var keyPattern = regexp.MustCompile(`^[a-z0-9_]{1,40}$`)

// SurveyInput is the body of POST /surveys and PATCH /surveys/{id}. A nil
// field is left unchanged.
type SurveyInput struct {
	Title     *string     `json:"title"`
	Status    *Status     `json:"status"`
	Questions *[]Question `json:"questions"`
}

// Validate cleans and checks the input, giving questions and options
// without an id the ids q1, q2, ... and o1, o2, ...
func (in *SurveyInput) Validate(create bool) error {
	var v Validator
	validateTitleStatus(&v, in.Title, in.Status, create, in.Questions != nil)
	if create && in.Questions == nil {
		v.Add("questions", "is required")
	}
	if in.Questions != nil {
		validateQuestions(&v, *in.Questions)
	}
	return v.Err()
}

func validateQuestions(v *Validator, qs []Question) {
	if !v.Check(len(qs) >= 1 && len(qs) <= MaxQuestions, "questions",
		fmt.Sprintf("must hold 1 to %d questions", MaxQuestions)) {
		return
	}
	seen := map[string]bool{}
	for i := range qs {
		q := &qs[i]
		name := fmt.Sprintf("questions[%d]", i)
		if q.ID == "" {
			q.ID = fmt.Sprintf("q%d", i+1)
		}
		if v.Check(keyPattern.MatchString(q.ID), name+".id", "must match ^[a-z0-9_]{1,40}$") {
			v.Check(!seen[q.ID], name+".id", "must be unique within the survey")
		}
		seen[q.ID] = true
		validateLabels(v, q.Labels, name+".labels")
		validateOptions(v, q, name)
	}
}

func validateOptions(v *Validator, q *Question, name string) {
	switch q.Type {
	case QuestionSingleChoice, QuestionMultiChoice:
		if !v.Check(len(q.Options) >= 2 && len(q.Options) <= MaxOptions, name+".options",
			fmt.Sprintf("must hold 2 to %d options", MaxOptions)) {
			return
		}
		seen := map[string]bool{}
		for j := range q.Options {
			o := &q.Options[j]
			oname := fmt.Sprintf("%s.options[%d]", name, j)
			if o.ID == "" {
				o.ID = fmt.Sprintf("o%d", j+1)
			}
			if v.Check(keyPattern.MatchString(o.ID), oname+".id", "must match ^[a-z0-9_]{1,40}$") {
				v.Check(!seen[o.ID], oname+".id", "must be unique within the question")
			}
			seen[o.ID] = true
			validateLabels(v, o.Labels, oname+".labels")
		}
	case QuestionRating, QuestionNPS, QuestionText, QuestionYesNo:
		v.Check(len(q.Options) == 0, name+".options", "is only allowed for single_choice and multi_choice")
	default:
		v.Add(name+".type", "must be one of rating, nps, single_choice, multi_choice, text, yes_no")
	}
}

func validateLabels(v *Validator, l Labels, name string) {
	if !v.Check(len(l) > 0, name, "must hold a text in at least one language") {
		return
	}
	for lang, text := range l {
		if !v.Check(ValidLanguage(lang), name, fmt.Sprintf("has an invalid language tag %q", lang)) {
			continue
		}
		cleaned, reason := CleanText(text, MaxLabel)
		l[lang] = cleaned
		if reason == "" && cleaned == "" {
			reason = "must not be empty"
		}
		v.Check(reason == "", name+"."+lang, reason)
	}
}

// Label returns the text for lang, falling back to English and then to any
// language in a stable order.
func (l Labels) Label(lang string) string {
	if s, ok := l[lang]; ok {
		return s
	}
	if len(lang) > 2 {
		if s, ok := l[lang[:2]]; ok {
			return s
		}
	}
	if s, ok := l["en"]; ok {
		return s
	}
	best := ""
	for k := range l {
		if best == "" || k < best {
			best = k
		}
	}
	return l[best]
}

// SurveyResponse is what a visitor answered to a survey. Answers are keyed
// by question id; each value has the JSON type its question takes.
type SurveyResponse struct {
	ID         string         `json:"id"`
	SurveyID   string         `json:"survey_id"`
	LocationID string         `json:"location_id"`
	PosterID   string         `json:"poster_id,omitempty"`
	Answers    map[string]any `json:"answers"`
	Language   string         `json:"language"`
	Source     Source         `json:"source"`
	DeviceID   string         `json:"device_id,omitempty"`
	CapturedAt Time           `json:"captured_at"`
	CreatedAt  Time           `json:"created_at"`
}
