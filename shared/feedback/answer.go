package feedback

import (
	"bytes"
	"encoding/json"
	"strconv"
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
		if !v.Ensure(ok, name, RuleNotQuestion) {
			continue
		}
		if isNull(raw) {
			continue
		}
		val, b := checkAnswer(q, raw)
		if !v.record(name, b) {
			continue
		}
		enc, _ := json.Marshal(val)
		out[id] = enc
	}
	for _, q := range qs {
		if _, ok := out[q.ID]; !ok && q.Required {
			if _, given := answers[q.ID]; !given || isNull(answers[q.ID]) {
				v.Reject("answers."+q.ID, RuleRequired)
			}
		}
	}
	return out
}

func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// checkAnswer decodes raw as the type q takes and returns the clean value
// or the rule it breaks.
func checkAnswer(q *Question, raw json.RawMessage) (any, breach) {
	switch q.Type {
	case QuestionRating:
		return intAnswer(raw, 1, 5)
	case QuestionNPS:
		return intAnswer(raw, 0, 10)
	case QuestionYesNo:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return nil, broke(RuleBool)
		}
		return b, breach{}
	case QuestionText:
		return textAnswer(q, raw)
	case QuestionSingleChoice:
		var s string
		if json.Unmarshal(raw, &s) != nil || !q.hasOption(s) {
			return nil, broke(RuleOption)
		}
		return s, breach{}
	case QuestionMultiChoice:
		return multiAnswer(q, raw)
	}
	return nil, broke(RuleUnknownType)
}

func intAnswer(raw json.RawMessage, min, max int) (any, breach) {
	var n int
	if json.Unmarshal(raw, &n) != nil || n < min || n > max {
		return nil, broke(RuleIntRange, itoa(min), itoa(max))
	}
	return n, breach{}
}

func textAnswer(q *Question, raw json.RawMessage) (any, breach) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, broke(RuleString)
	}
	s, b := cleanText(s, MaxAnswerText)
	if b.ok() && s == "" && q.Required {
		b = broke(RuleRequired)
	}
	return s, b
}

func multiAnswer(q *Question, raw json.RawMessage) (any, breach) {
	var ids []string
	if json.Unmarshal(raw, &ids) != nil {
		return nil, broke(RuleOptionList)
	}
	chosen := map[string]bool{}
	for _, id := range ids {
		if !q.hasOption(id) {
			return nil, broke(RuleNotOption, strconv.Quote(id))
		}
		if chosen[id] {
			return nil, broke(RuleOptionTwice, strconv.Quote(id))
		}
		chosen[id] = true
	}
	if q.Required && len(ids) == 0 {
		return nil, broke(RuleMinOneOption)
	}
	out := []string{}
	for _, o := range q.Options { // option order, so the order of choices does not matter
		if chosen[o.ID] {
			out = append(out, o.ID)
		}
	}
	return out, breach{}
}

func (q *Question) hasOption(id string) bool {
	for _, o := range q.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}
