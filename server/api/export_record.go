package api

import (
	"strconv"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The CSV columns of the exports; a survey's answers follow its
// responseHeader, one column per question.
var (
	hygieneHeader = []string{"id", "created_at", "captured_at", "location_id", "location", "poster_id",
		"rating", "tags", "comment", "language", "source", "device_id"}
	reviewHeader = []string{"id", "created_at", "captured_at", "location_id", "location", "poster_id",
		"rating", "comment", "contact_email", "contact_consent", "language", "source", "device_id"}
	responseHeader = []string{"id", "created_at", "captured_at", "location_id", "location", "poster_id",
		"language", "source", "device_id"}
)

// hygieneRecord returns h's CSV record; names maps location ids to names.
func hygieneRecord(h feedback.HygieneSubmission, names map[string]string) []string {
	return []string{h.ID, h.CreatedAt.String(), h.CapturedAt.String(), h.LocationID, text(names[h.LocationID]), h.PosterID,
		strconv.Itoa(h.Rating), strings.Join(h.Tags, "; "), text(h.Comment), h.Language, string(h.Source), h.DeviceID}
}

// reviewRecord returns r's CSV record.
func reviewRecord(r feedback.ReviewResponse, names map[string]string) []string {
	return []string{r.ID, r.CreatedAt.String(), r.CapturedAt.String(), r.LocationID, text(names[r.LocationID]), r.PosterID,
		strconv.Itoa(r.Rating), text(r.Comment), text(r.ContactEmail), strconv.FormatBool(r.ContactConsent),
		r.Language, string(r.Source), r.DeviceID}
}

// surveyHeader returns the CSV header of a survey's responses: a
// question's column is named by its English label (or another, see
// Labels.Label), and by its id too where two labels are the same.
func surveyHeader(qs []feedback.Question) []string {
	h := append([]string{}, responseHeader...)
	seen := map[string]int{}
	for _, q := range qs {
		seen[q.Labels.Label("en")]++
	}
	for _, q := range qs {
		name := q.Labels.Label("en")
		if name == "" || seen[name] > 1 {
			name = strings.TrimSpace(name + " (" + q.ID + ")")
		}
		h = append(h, text(name))
	}
	return h
}

// surveyRecord returns r's CSV record: an answer is a number, yes or no,
// the chosen options' English labels (separated by "; "), or the text;
// an unanswered question is empty.
func surveyRecord(r feedback.SurveyResponse, qs []feedback.Question, names map[string]string) []string {
	rec := []string{r.ID, r.CreatedAt.String(), r.CapturedAt.String(), r.LocationID, text(names[r.LocationID]), r.PosterID,
		r.Language, string(r.Source), r.DeviceID}
	for _, q := range qs {
		rec = append(rec, answerCell(q, r.Answers[q.ID]))
	}
	return rec
}

// answerCell writes one answer of q as a CSV cell.
func answerCell(q feedback.Question, a any) string {
	switch v := a.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case string:
		if q.Type == feedback.QuestionSingleChoice {
			return text(optionLabel(q, v))
		}
		return text(v)
	case []any:
		labels := make([]string, 0, len(v))
		for _, id := range v {
			s, _ := id.(string)
			labels = append(labels, optionLabel(q, s))
		}
		return text(strings.Join(labels, "; "))
	default:
		return ""
	}
}

// optionLabel returns the English label of q's option id, or id.
func optionLabel(q feedback.Question, id string) string {
	for _, o := range q.Options {
		if o.ID == id {
			return o.Labels.Label("en")
		}
	}
	return id
}

// text returns a cell of text that people wrote, made safe to open in a
// spreadsheet: one that begins with =, +, -, @, a tab or a carriage
// return would be read as a formula (CSV injection), so it gets a
// leading apostrophe, as OWASP advises. NDJSON has the text unchanged.
func text(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
