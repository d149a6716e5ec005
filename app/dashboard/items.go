package dashboard

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The feedback of the REST lists and of the live events, as the overview
// shows it.

func hygieneItem(h *feedback.HygieneSubmission) feedItem {
	c := h.Comment
	if c == "" && len(h.Tags) > 0 {
		c = strings.Join(h.Tags, ", ")
	}
	return feedItem{ID: h.ID, Kind: kindHygiene, LocationID: h.LocationID, Rating: h.Rating, Comment: c, CreatedAt: h.CreatedAt.Time}
}

func reviewItem(r *feedback.ReviewResponse) feedItem {
	return feedItem{ID: r.ID, Kind: kindReview, FormID: r.ReviewID, LocationID: r.LocationID, Rating: r.Rating,
		Comment: r.Comment, CreatedAt: r.CreatedAt.Time}
}

func surveyItem(r *feedback.SurveyResponse) feedItem {
	return feedItem{ID: r.ID, Kind: kindSurvey, FormID: r.SurveyID, LocationID: r.LocationID, Answers: len(r.Answers),
		Comment: firstText(r.Answers), CreatedAt: r.CreatedAt.Time}
}

// firstText returns the first non-empty text answer, by question id.
func firstText(answers map[string]any) string {
	keys := make([]string, 0, len(answers))
	for k, v := range answers {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	sort.Strings(keys)
	return answers[keys[0]].(string)
}

// eventItem returns the feedback an event carries, and reports whether
// it carries any (kiosk and form events do not).
func eventItem(ev *feedback.Event) (feedItem, bool) {
	var err error
	switch ev.Type {
	case feedback.EventHygieneSubmissionCreated:
		var h feedback.HygieneSubmission
		if err = json.Unmarshal(ev.Data, &h); err == nil {
			return hygieneItem(&h), h.ID != ""
		}
	case feedback.EventReviewResponseCreated:
		var r feedback.ReviewResponse
		if err = json.Unmarshal(ev.Data, &r); err == nil {
			return reviewItem(&r), r.ID != ""
		}
	case feedback.EventSurveyResponseCreated:
		var r feedback.SurveyResponse
		if err = json.Unmarshal(ev.Data, &r); err == nil {
			return surveyItem(&r), r.ID != ""
		}
	}
	return feedItem{}, false
}

// isKioskEvent reports whether ev changes what the kiosk list shows.
func isKioskEvent(ev *feedback.Event) bool { return strings.HasPrefix(ev.Type, "kiosk.") }
