package visitor

import (
	"net/url"
	"strconv"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Values are what the visitor has entered so far, as the form fields hold
// them: the same shape whether the server re-renders a rejected post, or
// the wasm adopts the prerendered DOM and keeps state.
type Values struct {
	Rating  int
	Tags    []string
	Comment string
	Email   string
	Consent bool
	// Answers maps a question id to its chosen or typed values.
	Answers map[string][]string
}

// ValuesOf returns the values of a submission decoded from a form post.
func ValuesOf(s *feedback.Submission) Values {
	v := Values{Tags: s.Tags, Answers: map[string][]string{}}
	if s.Rating != nil {
		v.Rating = *s.Rating
	}
	if s.Comment != nil {
		v.Comment = *s.Comment
	}
	if s.ContactEmail != nil {
		v.Email = *s.ContactEmail
	}
	v.Consent = s.ContactConsent != nil && *s.ContactConsent
	for id, raw := range s.Answers {
		v.Answers[id] = answerStrings(raw)
	}
	return v
}

// Form encodes the values as the HTML form would post them, so that the
// wasm builds its submission with the server's own decoder.
func (v Values) Form(id, lang string) url.Values {
	f := url.Values{feedback.FieldID: {id}}
	if lang != "" {
		f.Set(feedback.FieldLanguage, lang)
	}
	if v.Rating > 0 {
		f.Set(feedback.FieldRating, strconv.Itoa(v.Rating))
	}
	for _, t := range v.Tags {
		f.Add(feedback.FieldTags, t)
	}
	set := func(name, s string) {
		if s != "" {
			f.Set(name, s)
		}
	}
	set(feedback.FieldComment, v.Comment)
	set(feedback.FieldContactEmail, v.Email)
	if v.Consent {
		f.Set(feedback.FieldContactConsent, "yes")
	}
	for q, vals := range v.Answers {
		for _, s := range vals {
			f.Add(feedback.AnswerFieldPrefix+q, s)
		}
	}
	return f
}

// has reports whether s holds x.
func has(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// toggle adds x to s, or removes it when on is false.
func toggle(s []string, x string, on bool) []string {
	out := make([]string, 0, len(s)+1)
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	if on {
		out = append(out, x)
	}
	return out
}
