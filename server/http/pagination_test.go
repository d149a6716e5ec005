package http_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestPagination(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Pages")
		var ids []string
		for i := range 7 {
			id := feedback.NewID()
			ids = append(ids, id)
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": id, "rating": 1 + i%5}).expect(t, 201, "")
			if i%3 == 2 {
				ts.Clock.Add(time.Second) // some rows share created_at; id breaks the tie
			}
		}
		var all feedback.Page[feedback.HygieneSubmission]
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: f.Token}).expect(t, 200, "").decode(t, &all)
		if diff := cmp.Diff(feedback.Meta{Total: 7, Page: 1, PerPage: 50, Pages: 1}, all.Meta); diff != "" {
			t.Errorf("meta (-want +got):\n%s", diff)
		}
		if !sort.SliceIsSorted(all.Data, func(i, j int) bool {
			a, b := all.Data[i], all.Data[j]
			return a.CreatedAt.After(b.CreatedAt.Time) || (a.CreatedAt.Equal(b.CreatedAt.Time) && a.ID > b.ID)
		}) {
			t.Errorf("not ordered by created_at desc, id desc: %+v", all.Data)
		}
		var seen []string
		for page := 1; page <= 4; page++ {
			var p feedback.Page[feedback.HygieneSubmission]
			ts.do(t, req{method: "GET", path: fmt.Sprintf("/api/v1/hygiene?per_page=3&page=%d", page), token: f.Token}).expect(t, 200, "").decode(t, &p)
			want := feedback.Meta{Total: 7, Page: page, PerPage: 3, Pages: 3}
			if len(p.Data) == 3 {
				want.NextCursor = p.Data[2].Key().String()
			}
			if diff := cmp.Diff(want, p.Meta); diff != "" {
				t.Errorf("page %d meta (-want +got):\n%s", page, diff)
			}
			wantLen := []int{3, 3, 1, 0}[page-1]
			if len(p.Data) != wantLen || p.Data == nil {
				t.Errorf("page %d has %d items (nil %v); want %d", page, len(p.Data), p.Data == nil, wantLen)
			}
			for _, h := range p.Data {
				seen = append(seen, h.ID)
			}
		}
		var allIDs []string
		for _, h := range all.Data {
			allIDs = append(allIDs, h.ID)
		}
		if diff := cmp.Diff(ids, allIDs, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("the list does not hold exactly the submitted ids (-sent +listed):\n%s", diff)
		}
		if diff := cmp.Diff(allIDs, seen); diff != "" {
			t.Errorf("paging does not walk the list in order (-all +paged):\n%s", diff)
		}
		var empty feedback.Page[feedback.Location]
		ts.do(t, req{method: "GET", path: "/api/v1/locations?page=1000000", token: f.Token}).expect(t, 200, "").decode(t, &empty)
		if len(empty.Data) != 0 || empty.Meta.Total != 1 || empty.Meta.Pages != 1 {
			t.Errorf("far page %+v", empty)
		}
		for _, q := range []string{"page=0", "page=1000001", "per_page=0", "per_page=201", "page=1.5", "per_page="} {
			ts.do(t, req{method: "GET", path: "/api/v1/hygiene?" + q, token: f.Token}).expect(t, 400, feedback.EInvalidParameter)
		}
	})
}

// TestCursorWalk walks the hygiene list by cursor while submissions
// arrive: every submission that existed at the start is seen once, in
// list order, and a malformed cursor, or one with page, is a 400.
func TestCursorWalk(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Cursor")
		for i := range 8 {
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 3}).expect(t, 201, "")
			if i%3 == 2 {
				ts.Clock.Add(time.Second) // some rows share created_at; id breaks the tie
			}
		}
		var all feedback.Page[feedback.HygieneSubmission]
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: f.Token}).expect(t, 200, "").decode(t, &all)
		var want, seen []string
		for _, h := range all.Data {
			want = append(want, h.ID)
		}
		path := "/api/v1/hygiene?per_page=3"
		for range 10 {
			var p feedback.Page[feedback.HygieneSubmission]
			ts.do(t, req{method: "GET", path: path, token: f.Token}).expect(t, 200, "").decode(t, &p)
			for _, h := range p.Data {
				seen = append(seen, h.ID)
			}
			if p.Meta.NextCursor == "" {
				break
			}
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 4}).expect(t, 201, "")
			path = "/api/v1/hygiene?per_page=3&cursor=" + p.Meta.NextCursor
		}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("the walk by cursor (-list at the start +walked):\n%s", diff)
		}
		for _, q := range []string{"cursor=", "cursor=%21%21", "cursor=bm90LWEtY3Vyc29y", "page=1&cursor=" + all.Data[0].Key().String()} {
			ts.do(t, req{method: "GET", path: "/api/v1/hygiene?" + q, token: f.Token}).expect(t, 400, feedback.EInvalidParameter)
		}
		for _, list := range []string{"/review/" + f.Review.ID + "/responses", "/surveys/" + f.Survey.ID + "/responses"} {
			ts.do(t, req{method: "GET", path: "/api/v1" + list + "?cursor=" + all.Data[0].Key().String(), token: f.Token}).expect(t, 200, "")
		}
	})
}

func TestTimeFilters(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Times")
		other := ts.do(t, req{method: "POST", path: "/api/v1/locations", token: f.Token, body: map[string]any{"name": "Other"}}).expect(t, 201, "")
		var otherLoc feedback.Location
		other.decode(t, &otherLoc)
		var otherPoster feedback.Poster
		ts.do(t, req{method: "POST", path: "/api/v1/locations/" + otherLoc.ID + "/posters", token: f.Token,
			body: map[string]any{"form": "hygiene"}}).expect(t, 201, "").decode(t, &otherPoster)

		start := ts.Clock.Now() // 2026-11-21T10:00:05Z
		var stamps []time.Time
		for i := range 4 {
			stamps = append(stamps, ts.Clock.Now())
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 3}).expect(t, 201, "")
			if i == 1 {
				submit(t, ts, otherPoster.Code, map[string]any{"id": feedback.NewID(), "rating": 3}).expect(t, 201, "")
			}
			ts.Clock.Add(12 * time.Hour)
		}
		count := func(query string) int {
			t.Helper()
			var p feedback.Page[feedback.HygieneSubmission]
			ts.do(t, req{method: "GET", path: "/api/v1/hygiene?" + query, token: f.Token}).expect(t, 200, "").decode(t, &p)
			return p.Meta.Total
		}
		rfc := func(t time.Time) string { return t.Format(time.RFC3339Nano) }
		tests := []struct {
			query string
			want  int
		}{
			{"", 5},
			{"from=" + rfc(stamps[1]), 4}, // inclusive, with the other location's row
			{"to=" + rfc(stamps[1]), 1},   // exclusive
			{"from=" + rfc(stamps[1]) + "&to=" + rfc(stamps[3]), 3}, // rows 1, 2 and the other location's
			{"from=" + rfc(stamps[1]) + "&to=" + rfc(stamps[1]), 0},
			{"from=2026-11-22", 2},                  // 00:00 UTC: rows 2 and 3 (22 Nov 10:00 and 22:00)
			{"to=2026-11-22", 3},                    // rows 0, 1 and the other location's, all on 21 Nov
			{"from=2026-11-22T01:00:00%2B02:00", 2}, // 21 Nov 23:00 UTC
			{"location_id=" + f.Location.ID, 4},
			{"location_id=" + otherLoc.ID, 1},
			{"location_id=" + otherLoc.ID + "&to=" + rfc(start), 0},
			{"location_id=" + feedback.NewID(), 0},
		}
		for _, tt := range tests {
			if got := count(tt.query); got != tt.want {
				t.Errorf("GET /hygiene?%s: total %d; want %d", tt.query, got, tt.want)
			}
		}
	})
}
