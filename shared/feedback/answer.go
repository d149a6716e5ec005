package feedback

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// checkAnswers validates every answer against its question and returns the
// answers re-encoded in canonical form. Unknown question ids, missing
// required answers and values of the wrong type are all reported.
func checkAnswers(v *Validator, qs []Question, answers map[string]json.RawMessage) map[string]json.RawMessage {
	byID := map[string]*Question{}
	for i := range qs {
		byID[qs[i].ID] = &qs[i]
	}
	out := map[string]json.RawMessage{}
	for id, raw := range answers {
		name := "answers." + id
		q, ok := byID[id]
		if !v.Check(ok, name, "is not a question of this survey") {
			continue
		}
		if isNull(raw) {
			continue
		}
		val, reason := checkAnswer(q, raw)
		if !v.Check(reason == "", name, reason) {
			continue
		}
		b, _ := json.Marshal(val)
		out[id] = b
	}
	for _, q := range qs {
		if _, ok := out[q.ID]; !ok && q.Required {
			if _, given := answers[q.ID]; !given || isNull(answers[q.ID]) {
				v.Add("answers."+q.ID, "is required")
			}
		}
	}
	return out
}

func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// checkAnswer decodes raw as the type q takes and returns the clean value
// or the reason it is wrong.
func checkAnswer(q *Question, raw json.RawMessage) (any, string) {
	switch q.Type {
	case QuestionRating:
		return intAnswer(raw, 1, 5)
	case QuestionNPS:
		return intAnswer(raw, 0, 10)
	case QuestionYesNo:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return nil, "must be true or false"
		}
		return b, ""
	case QuestionText:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, "must be a string"
		}
		s, reason := CleanText(s, MaxAnswerText)
		if reason == "" && s == "" && q.Required {
			reason = "is required"
		}
		return s, reason
	case QuestionSingleChoice:
		var s string
		if json.Unmarshal(raw, &s) != nil || !q.hasOption(s) {
			return nil, "must be the id of one of the question's options"
		}
		return s, ""
	case QuestionMultiChoice:
		return multiAnswer(q, raw)
	}
	return nil, "belongs to a question of unknown type"
}

func intAnswer(raw json.RawMessage, min, max int) (any, string) {
	var n int
	if json.Unmarshal(raw, &n) != nil || n < min || n > max {
		return nil, fmt.Sprintf("must be an integer from %d to %d", min, max)
	}
	return n, ""
}

func multiAnswer(q *Question, raw json.RawMessage) (any, string) {
	var ids []string
	if json.Unmarshal(raw, &ids) != nil {
		return nil, "must be a list of option ids"
	}
	chosen := map[string]bool{}
	for _, id := range ids {
		if !q.hasOption(id) {
			return nil, fmt.Sprintf("holds %q, which is not an option of the question", id)
		}
		if chosen[id] {
			return nil, fmt.Sprintf("holds %q twice", id)
		}
		chosen[id] = true
	}
	if q.Required && len(ids) == 0 {
		return nil, "must choose at least one option"
	}
	out := []string{}
	for _, o := range q.Options { // option order, so the order of choices does not matter
		if chosen[o.ID] {
			out = append(out, o.ID)
		}
	}
	return out, ""
}

func (q *Question) hasOption(id string) bool {
	for _, o := range q.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}
