package http_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestExportHygiene: the CSV has the list's rows in its order, with the
// location's name, tags and quoting, and a formula made harmless; the
// NDJSON has the list's items byte for byte.
func TestExportHygiene(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		comments := []string{"=HYPERLINK(\"http://evil\")", "soap, \"none\"\nat all", "fine"}
		for i, c := range comments {
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": i + 1,
				"tags": []string{"no_soap", "no_paper"}[:i%2+1], "comment": c}).expect(t, 201, "")
		}
		var list struct{ Data []json.RawMessage }
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: f.Token}).expect(t, 200, "").decode(t, &list)

		r := ts.do(t, req{method: "GET", path: "/api/v1/hygiene/export", token: f.Token}).expect(t, 200, "")
		if ct, cd := r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"); !strings.HasPrefix(ct, "text/csv") ||
			!strings.HasPrefix(cd, `attachment; filename="hygiene-`) {
			t.Errorf("Content-Type %q, Content-Disposition %q", ct, cd)
		}
		rows, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
		if err != nil || len(rows) != 4 {
			t.Fatalf("%d rows, %v:\n%s", len(rows), err, r.Body)
		}
		if got := strings.Join(rows[0], ","); got != "id,created_at,captured_at,location_id,location,poster_id,rating,tags,comment,language,source,device_id" {
			t.Errorf("header %s", got)
		}
		for i, raw := range list.Data {
			var h feedback.HygieneSubmission
			_ = json.Unmarshal(raw, &h)
			row := rows[i+1]
			want := h.Comment
			if strings.HasPrefix(want, "=") {
				want = "'" + want
			}
			if row[0] != h.ID || row[1] != h.CreatedAt.String() || row[4] != "Acme restroom" || row[6] != strconv.Itoa(h.Rating) ||
				row[7] != strings.Join(h.Tags, "; ") || row[8] != want {
				t.Errorf("row %d %q; the list's item %s", i+1, row, raw)
			}
		}

		r = ts.do(t, req{method: "GET", path: "/api/v1/hygiene/export?format=ndjson&location_id=" + f.Location.ID, token: f.Token}).expect(t, 200, "")
		lines := strings.Split(strings.TrimSuffix(string(r.Body), "\n"), "\n")
		if r.Header.Get("Content-Type") != "application/x-ndjson" || len(lines) != len(list.Data) {
			t.Fatalf("%s, %d lines:\n%s", r.Header.Get("Content-Type"), len(lines), r.Body)
		}
		for i, raw := range list.Data {
			if lines[i] != string(raw) {
				t.Errorf("line %d %s; the list's item %s", i, lines[i], raw)
			}
		}
	})
}

// TestExportWhole: an export walks every batch: 2,345 rows, each once,
// newest first, and the from/to filter holds.
func TestExportWhole(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		ctx := context.Background()
		start := ts.Clock.Now()
		for i := range 2345 {
			h := &feedback.HygieneSubmission{ID: feedback.NewID(), Rating: 1 + i%5, LocationID: f.Location.ID,
				PosterID: f.Hygiene.ID, Language: "en", Source: feedback.SourceQR}
			if _, err := ts.Store.AddHygiene(ctx, f.ID, h, []byte(h.ID)); err != nil {
				t.Fatal(err)
			}
			ts.Clock.Add(time.Second)
		}
		r := ts.do(t, req{method: "GET", path: "/api/v1/hygiene/export?format=ndjson", token: f.Token}).expect(t, 200, "")
		var keys []feedback.Cursor
		for line := range strings.Lines(string(r.Body)) {
			var h feedback.HygieneSubmission
			if err := json.Unmarshal([]byte(line), &h); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			keys = append(keys, h.Key())
		}
		sorted := slices.IsSortedFunc(keys, func(a, b feedback.Cursor) int {
			return cmpKeys(b, a)
		})
		if len(keys) != 2345 || !sorted || len(slices.CompactFunc(slices.Clone(keys), func(a, b feedback.Cursor) bool { return a == b })) != 2345 {
			t.Fatalf("%d rows (sorted %v), want 2,345 distinct, newest first", len(keys), sorted)
		}
		from := start.Add(1000 * time.Second).UTC().Format(time.RFC3339)
		r = ts.do(t, req{method: "GET", path: "/api/v1/hygiene/export?from=" + from, token: f.Token}).expect(t, 200, "")
		if n := bytes.Count(r.Body, []byte("\n")); n != 1+1345 {
			t.Errorf("from %s: %d lines, want the header and 1,345 rows", from, n)
		}
	})
}

// TestExportResponses: a survey's export has one column per question,
// choices by their labels; a review's has its rating and comment;
// refused parameters and another workspace's form are answered first.
func TestExportResponses(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		submit(t, ts, f.SPoster.Code, map[string]any{"id": feedback.NewID(), "answers": map[string]any{"overall": 4, "why": "b"}}).expect(t, 201, "")
		submit(t, ts, f.RPoster.Code, map[string]any{"id": feedback.NewID(), "rating": 5, "comment": "+1 great"}).expect(t, 201, "")

		r := ts.do(t, req{method: "GET", path: "/api/v1/surveys/" + f.Survey.ID + "/responses/export?workspace=" + f.WS.Slug, token: f.Token}).expect(t, 200, "")
		rows, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("%d rows, %v:\n%s", len(rows), err, r.Body)
		}
		if h, row := rows[0], rows[1]; strings.Join(h[len(h)-2:], "|") != "Overall?|Why?" || strings.Join(row[len(row)-2:], "|") != "4|B" {
			t.Errorf("survey export:\n%s", r.Body)
		}
		r = ts.do(t, req{method: "GET", path: "/api/v1/review/" + f.Review.ID + "/responses/export", token: f.Token}).expect(t, 200, "")
		rows, _ = csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
		if len(rows) != 2 || rows[1][6] != "5" || rows[1][7] != "'+1 great" {
			t.Errorf("review export:\n%s", r.Body)
		}

		other := ts.newFixture(t, "Other")
		for path, code := range map[string]string{
			"/api/v1/hygiene/export?format=xml":                         string(feedback.EInvalidParameter),
			"/api/v1/hygiene/export?page=2":                             string(feedback.EInvalidParameter),
			"/api/v1/hygiene/export?from=yesterday":                     string(feedback.EInvalidParameter),
			"/api/v1/hygiene/export?workspace=" + other.WS.Slug:         string(feedback.EInvalidParameter),
			"/api/v1/surveys/" + other.Survey.ID + "/responses/export":  string(feedback.ENotFound),
			"/api/v1/review/" + other.Review.ID + "/responses/export":   string(feedback.ENotFound),
			"/api/v1/surveys/" + feedback.NewID() + "/responses/export": string(feedback.ENotFound),
		} {
			ts.do(t, req{method: "GET", path: path, token: f.Token}).expect(t, map[bool]int{true: 404, false: 400}[code == string(feedback.ENotFound)], code)
		}
	})
}

// cmpKeys orders cursors as the lists do: created_at, then id.
func cmpKeys(a, b feedback.Cursor) int {
	if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// TestResponsesByLocation: a form's responses, listed and exported,
// narrow to one location, with the total of that location.
func TestResponsesByLocation(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		var lobby feedback.Location
		var poster feedback.Poster
		ts.do(t, req{method: "POST", path: "/api/v1/locations", token: f.Token, body: map[string]any{"name": "Lobby"}}).expect(t, 201, "").decode(t, &lobby)
		ts.do(t, req{method: "POST", path: "/api/v1/locations/" + lobby.ID + "/posters", token: f.Token,
			body: map[string]any{"form": "review", "review_id": f.Review.ID}}).expect(t, 201, "").decode(t, &poster)
		for _, code := range []string{f.RPoster.Code, f.RPoster.Code, poster.Code} {
			submit(t, ts, code, map[string]any{"id": feedback.NewID(), "rating": 4}).expect(t, 201, "")
		}
		var page feedback.Page[feedback.ReviewResponse]
		ts.do(t, req{method: "GET", path: "/api/v1/review/" + f.Review.ID + "/responses?location_id=" + lobby.ID, token: f.Token}).
			expect(t, 200, "").decode(t, &page)
		if page.Meta.Total != 1 || len(page.Data) != 1 || page.Data[0].LocationID != lobby.ID {
			t.Errorf("the lobby's responses: %+v", page)
		}
		ts.do(t, req{method: "GET", path: "/api/v1/review/" + f.Review.ID + "/responses?location_id=" + f.Location.ID, token: f.Token}).
			expect(t, 200, "").decode(t, &page)
		if page.Meta.Total != 2 || len(page.Data) != 2 {
			t.Errorf("the restroom's responses: total %d, %d items; want 2", page.Meta.Total, len(page.Data))
		}
		r := ts.do(t, req{method: "GET", path: "/api/v1/review/" + f.Review.ID + "/responses/export?format=ndjson&location_id=" + lobby.ID, token: f.Token}).expect(t, 200, "")
		if n := bytes.Count(r.Body, []byte("\n")); n != 1 || !bytes.Contains(r.Body, []byte(lobby.ID)) {
			t.Errorf("the lobby's export:\n%s", r.Body)
		}
		ts.do(t, req{method: "GET", path: "/api/v1/surveys/" + f.Survey.ID + "/responses?location_id=" + lobby.ID, token: f.Token}).
			expect(t, 200, "").decode(t, &page)
		if page.Meta.Total != 0 {
			t.Errorf("the survey's responses at the lobby: total %d, want 0", page.Meta.Total)
		}
	})
}
