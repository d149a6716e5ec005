package http_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestHygieneRatingTagFilter: the list and its export keep only the
// ratings and the tag asked for, count only those, and refuse a rating
// or a tag that cannot be.
func TestHygieneRatingTagFilter(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		tags := [][]string{{"no_soap"}, {"bad_smell"}, {"no_soap", "bad_smell"}, {}, {"no_paper"}}
		for i, tg := range tags {
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": i + 1, "tags": tg}).expect(t, 201, "")
		}
		for query, want := range map[string][]int{
			"rating=1,2":             {2, 1},
			"rating=5":               {5},
			"tag=no_soap":            {3, 1},
			"tag=bad_smell&rating=3": {3},
			"tag=out_of_order":       {},
		} {
			var page feedback.Page[feedback.HygieneSubmission]
			ts.do(t, req{method: "GET", path: "/api/v1/hygiene?" + query, token: f.Token}).expect(t, 200, "").decode(t, &page)
			if got := ratings(page.Data); !slices.Equal(got, want) || page.Meta.Total != len(want) {
				t.Errorf("%s: ratings %v, total %d; want %v", query, got, page.Meta.Total, want)
			}
			r := ts.do(t, req{method: "GET", path: "/api/v1/hygiene/export?format=ndjson&" + query, token: f.Token}).expect(t, 200, "")
			var exported []feedback.HygieneSubmission
			for line := range strings.Lines(string(r.Body)) {
				var h feedback.HygieneSubmission
				if err := json.Unmarshal([]byte(line), &h); err != nil {
					t.Fatalf("%s: line %q: %v", query, line, err)
				}
				exported = append(exported, h)
			}
			if got := ratings(exported); !slices.Equal(got, want) {
				t.Errorf("%s: export's ratings %v; want %v", query, got, want)
			}
		}
		for _, query := range []string{"rating=0", "rating=6", "rating=1,,2", "rating=one", "tag=sticky", "tag=", "rating=1&rating=2"} {
			ts.do(t, req{method: "GET", path: "/api/v1/hygiene?" + query, token: f.Token}).expect(t, 400, "invalid_parameter")
			ts.do(t, req{method: "GET", path: "/api/v1/hygiene/export?" + query, token: f.Token}).expect(t, 400, "invalid_parameter")
		}
		// the forms' responses have no rating or tag filter
		ts.do(t, req{method: "GET", path: "/api/v1/review/" + f.Review.ID + "/responses?rating=1", token: f.Token}).
			expect(t, 400, "invalid_parameter")
	})
}

func ratings(hs []feedback.HygieneSubmission) []int {
	out := []int{}
	for _, h := range hs {
		out = append(out, h.Rating)
	}
	return out
}
