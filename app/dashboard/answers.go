package dashboard

import (
	"strconv"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// answerText is an answer to q as JSON decoded it (a number, a bool, a
// string or a list of option ids), in words; nil is no answer.
func answerText(q feedback.Question, v any) string {
	if v == nil {
		return "Not answered"
	}
	switch q.Type {
	case feedback.QuestionRating:
		return number(v) + " of 5"
	case feedback.QuestionNPS:
		return number(v) + " of 10"
	case feedback.QuestionYesNo:
		if b, _ := v.(bool); b {
			return "Yes"
		}
		return "No"
	case feedback.QuestionSingleChoice:
		s, _ := v.(string)
		return choiceText(q, s)
	case feedback.QuestionMultiChoice:
		ids, _ := v.([]any)
		var out []string
		for _, id := range ids {
			s, _ := id.(string)
			out = append(out, choiceText(q, s))
		}
		if len(out) == 0 {
			return "None chosen"
		}
		return strings.Join(out, ", ")
	}
	s, _ := v.(string)
	return orNone(s, "Left empty")
}

// number is a JSON number as an integer.
func number(v any) string {
	f, _ := v.(float64)
	return strconv.Itoa(int(f))
}

// choiceText is the English text of q's choice id.
func choiceText(q feedback.Question, id string) string {
	for _, o := range q.Options {
		if o.ID == id {
			return o.Labels.Label("en")
		}
	}
	return id
}

// languageName is the name of a visitor's language tag, in English.
func languageName(lang string) string {
	names := map[string]string{"en": "English", "de": "German", "fr": "French", "es": "Spanish"}
	if n, ok := names[lang]; ok {
		return n
	}
	if n := i18n.Name(lang); n != "" {
		return n
	}
	return lang
}
