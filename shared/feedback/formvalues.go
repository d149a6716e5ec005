package feedback

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// Form field names of the no-JavaScript visitor form. Survey answers use
// AnswerFieldPrefix followed by the question id.
const (
	FieldID               = "id"
	FieldCapturedAt       = "captured_at"
	FieldLanguage         = "language"
	FieldRating           = "rating"
	FieldTags             = "tags"
	FieldComment          = "comment"
	FieldContactEmail     = "contact_email"
	FieldContactConsent   = "contact_consent"
	AnswerFieldPrefix     = "q."
	maxFormValuesPerField = 20
)

// SubmissionFromForm builds a [Submission] from form values posted by the
// HTML form, so that both paths share one validation. Empty fields count
// as absent; unknown fields are rejected. survey gives each answer its
// JSON type and may be nil for other forms.
func SubmissionFromForm(f url.Values, survey *Survey) (Submission, error) {
	var s Submission
	var v Validator
	for name, vals := range f {
		if len(vals) > maxFormValuesPerField {
			v.Reject(name, RuleTooManyValues)
			continue
		}
		first := strings.TrimSpace(vals[0])
		switch {
		case name == FieldID:
			s.ID = first
		case name == FieldCapturedAt:
			s.CapturedAt = formTime(&v, first)
		case name == FieldLanguage:
			s.Language = first
		case name == FieldRating:
			s.Rating = formInt(&v, name, first)
		case name == FieldTags:
			s.Tags = nonEmpty(vals)
		case name == FieldComment:
			s.Comment = formString(vals[0])
		case name == FieldContactEmail:
			s.ContactEmail = formString(first)
		case name == FieldContactConsent:
			s.ContactConsent = formBool(&v, name, first)
		case strings.HasPrefix(name, AnswerFieldPrefix):
			formAnswer(&v, &s, survey, strings.TrimPrefix(name, AnswerFieldPrefix), vals)
		default:
			v.Reject(name, RuleNotFormField)
		}
	}
	return s, v.Err()
}

func formTime(v *Validator, s string) *Time {
	if s == "" {
		return nil
	}
	var t Time
	if err := t.UnmarshalJSON([]byte(strconv.Quote(s))); err != nil {
		v.Reject(FieldCapturedAt, RuleDateTime)
		return nil
	}
	return &t
}

func formInt(v *Validator, name, s string) *int {
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		v.Reject(name, RuleInteger)
		return nil
	}
	return &n
}

func formBool(v *Validator, name, s string) *bool {
	var b bool
	switch strings.ToLower(s) {
	case "":
		return nil
	case "on", "true", "yes", "1":
		b = true
	case "off", "false", "no", "0":
	default:
		v.Reject(name, RuleBool)
		return nil
	}
	return &b
}

func formString(s string) *string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return &s
}

func nonEmpty(vals []string) []string {
	var out []string
	for _, s := range vals {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// formAnswer encodes the posted values of question id as the JSON value its
// type takes; the JSON path then validates it.
func formAnswer(v *Validator, s *Submission, survey *Survey, id string, vals []string) {
	name := "answers." + id
	q := survey.question(id)
	if q == nil {
		v.Reject(name, RuleNotQuestion)
		return
	}
	vals = nonEmpty(vals)
	if len(vals) == 0 {
		return
	}
	var val any = vals[0]
	switch q.Type {
	case QuestionRating, QuestionNPS:
		n, err := strconv.Atoi(vals[0])
		if err != nil {
			v.Reject(name, RuleInteger)
			return
		}
		val = n
	case QuestionYesNo:
		b := formBool(v, name, vals[0])
		if b == nil {
			return
		}
		val = *b
	case QuestionMultiChoice:
		val = vals
	}
	raw, _ := json.Marshal(val)
	if s.Answers == nil {
		s.Answers = map[string]json.RawMessage{}
	}
	s.Answers[id] = raw
}

func (sv *Survey) question(id string) *Question {
	if sv == nil {
		return nil
	}
	for i := range sv.Questions {
		if sv.Questions[i].ID == id {
			return &sv.Questions[i]
		}
	}
	return nil
}
