package response

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestPageAppender checks that a page of items that write their own JSON
// is the document encoding/json writes for it, full, empty and with a
// cursor.
func TestPageAppender(t *testing.T) {
	at := feedback.NewTime(time.Date(2026, 11, 24, 9, 30, 1, 234e6, time.UTC))
	items := []feedback.HygieneSubmission{
		{ID: "a", Rating: 4, LocationID: "l", Tags: []string{"no_soap", "<&>"}, Comment: "ok \"fine\"", Language: "en",
			Source: feedback.SourceQR, CapturedAt: at, CreatedAt: at},
		{ID: "b", Rating: 1, LocationID: "l", PosterID: "p", DeviceID: "d", Tags: []string{}, Source: feedback.SourceKiosk,
			CapturedAt: at, CreatedAt: at},
	}
	for _, tc := range []struct {
		items []feedback.HygieneSubmission
		p     feedback.ListParams
	}{
		{items, feedback.ListParams{Page: 1, PerPage: 2}},
		{[]feedback.HygieneSubmission{}, feedback.ListParams{Page: 3, PerPage: 50}},
		{items, feedback.ListParams{Page: 1, PerPage: 2, After: &feedback.Cursor{CreatedAt: at.Time, ID: "z"}}},
	} {
		w := httptest.NewRecorder()
		if err := Page(w, tc.items, 7, tc.p); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(feedback.NewPage(tc.items, 7, tc.p))
		if got := w.Body.String(); got != string(want)+"\n" {
			t.Errorf("Page(%v)\n got %s\nwant %s", tc.p, got, want)
		}
	}
}
