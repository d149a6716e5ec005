package response

import (
	"encoding/json"
	"net/http/httptest"
	"strconv"
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

// TestJSONAppender checks that JSON answers a record that writes its own
// JSON, by value or by pointer, with the document encoding/json writes,
// and its status and length.
func TestJSONAppender(t *testing.T) {
	at := feedback.NewTime(time.Date(2026, 11, 25, 1, 2, 3, 456e6, time.UTC))
	h := feedback.HygieneSubmission{ID: "a", Rating: 2, LocationID: "l", PosterID: "p", Tags: []string{"no_soap", "<&>"},
		Comment: "\u2028 \"x\" \xff", Language: "fr", Source: feedback.SourceQR, CapturedAt: at, CreatedAt: at}
	for _, v := range []any{h, &h} {
		w := httptest.NewRecorder()
		if err := JSON(w, 201, v); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(v)
		if got := w.Body.String(); got != string(want)+"\n" {
			t.Errorf("JSON(%T)\n got %s\nwant %s", v, got, want)
		}
		if w.Code != 201 || w.Header().Get("Content-Length") != strconv.Itoa(len(want)+1) {
			t.Errorf("JSON(%T): status %d, Content-Length %q", v, w.Code, w.Header().Get("Content-Length"))
		}
	}
}
