package http_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// hiddenID finds the hidden submission id, whatever the attribute order.
var hiddenID = regexp.MustCompile(`<input(?:\s+(?:type="hidden"|name="id"|value="([0-9a-f-]{36})"))+>`)

func TestVisitorForm(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Visit")
		for _, tt := range []struct {
			name, code string
			want       []string
		}{
			{"hygiene", f.Hygiene.Code, []string{"Wie sauber ist es hier?", `name="rating"`, input(`name="tags"`, `value="no_soap"`), `name="comment"`}},
			{"review", f.RPoster.Code, []string{"How was it?", `name="rating"`, `name="contact_email"`, `name="contact_consent"`}},
			{"survey", f.SPoster.Code, []string{"Overall?", `name="q.overall"`, input(`name="q.why"`, `value="b"`)}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				r := ts.do(t, req{method: "GET", path: "/q/" + tt.code, header: http.Header{"Accept-Language": {"de-CH, en;q=0.5"}}})
				r.expect(t, 200, "")
				body := string(r.Body)
				if tt.name == "hygiene" {
					tt.want = append(tt.want, `lang="de"`)
				}
				for _, w := range tt.want {
					if !strings.Contains(body, w) && !hasInput(body, w) {
						t.Errorf("the form lacks %q", w)
					}
				}
				m := hiddenID.FindStringSubmatch(body)
				if m == nil {
					t.Fatal("the form has no hidden submission id")
				}
				again := hiddenID.FindStringSubmatch(string(ts.do(t, req{method: "GET", path: "/q/" + tt.code}).Body))
				if again == nil || again[1] == m[1] {
					t.Error("two renders share a submission id")
				}
				if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
					t.Errorf("Cache-Control = %q; want no-store", cc)
				}
				if !strings.Contains(r.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
					t.Errorf("CSP = %q", r.Header.Get("Content-Security-Policy"))
				}
			})
		}
		t.Run("invalid codes", func(t *testing.T) {
			tampered := f.Hygiene.Code[:42] + flipChar(f.Hygiene.Code[42])
			for _, code := range []string{tampered, "short", strings.Repeat("A", 43), f.Hygiene.Code + "x"} {
				r := ts.do(t, req{method: "GET", path: "/q/" + url.PathEscape(code)})
				if r.Status != 404 || !strings.Contains(string(r.Body), "not valid") {
					t.Errorf("GET /q/%s = %d %s; want 404 with a readable message", code, r.Status, r.Body)
				}
			}
		})
	})
}

func flipChar(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func TestVisitorFormPost(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "NoJS")
		id := feedback.NewID()
		form := url.Values{"id": {id}, "language": {"fr"}, "rating": {"2"}, "tags": {"bad_smell", "no_paper"}, "comment": {"Odeur"}}
		post := func(v url.Values) *result {
			return ts.do(t, req{method: "POST", path: "/q/" + f.Hygiene.Code, body: v.Encode(), contentType: "application/x-www-form-urlencoded"})
		}
		r := post(form).expect(t, 303, "")
		loc := r.Header.Get("Location")
		if !strings.HasPrefix(loc, "/q/"+f.Hygiene.Code+"/thanks") {
			t.Fatalf("Location = %q", loc)
		}
		thanks := ts.do(t, req{method: "GET", path: loc}).expect(t, 200, "")
		if !strings.Contains(string(thanks.Body), "Merci") {
			t.Errorf("the thank-you page is not in French: %s", thanks.Body)
		}
		post(form).expect(t, 303, "") // a double tap
		var page feedback.Page[feedback.HygieneSubmission]
		ts.do(t, req{method: "GET", path: "/api/v1/hygiene", token: f.Token}).expect(t, 200, "").decode(t, &page)
		if page.Meta.Total != 1 {
			t.Fatalf("%d submissions after a double post; want 1", page.Meta.Total)
		}
		got := page.Data[0]
		if got.ID != id || got.Rating != 2 || got.Comment != "Odeur" || got.Language != "fr" || got.Source != feedback.SourceQR ||
			got.PosterID != f.Hygiene.ID || got.LocationID != f.Location.ID || strings.Join(got.Tags, ",") != "no_paper,bad_smell" {
			t.Errorf("stored %+v", got)
		}
		bad := post(url.Values{"id": {feedback.NewID()}, "rating": {"9"}, "comment": {"kept text"}}).expect(t, 422, "")
		if !strings.Contains(string(bad.Body), "rating") || !strings.Contains(string(bad.Body), "kept text") {
			t.Errorf("the error page does not name the field or lost the comment: %s", bad.Body)
		}
		if n := countHygiene(t, ts, f); n != 1 {
			t.Errorf("an invalid post stored something: %d rows", n)
		}
	})
}

// TestVisitorRefusalInPageLanguage: a form posted from the German page
// of a browser that prefers English comes back in German, field names
// and reasons included; the API keeps its English reason.
func TestVisitorRefusalInPageLanguage(t *testing.T) {
	ts := MustOpenServer(t, "sqlite")
	f := ts.newFixture(t, "Lang")
	form := url.Values{"id": {feedback.NewID()}, "language": {"de"}, "rating": {"2"}, "comment": {strings.Repeat("x", 501)}}
	r := ts.do(t, req{method: "POST", path: "/q/" + f.Hygiene.Code, body: form.Encode(),
		contentType: "application/x-www-form-urlencoded", header: http.Header{"Accept-Language": {"en"}}}).expect(t, 422, "")
	body := string(r.Body)
	for _, want := range []string{`lang="de"`, "Bitte prüfen Sie Ihre Angaben", "Kommentar: darf höchstens 500 Zeichen lang sein (jetzt 501)"} {
		if !strings.Contains(body, want) {
			t.Errorf("the refusal lacks %q", want)
		}
	}
	if _, list, _ := strings.Cut(body, `class="errors"`); strings.Contains(strings.SplitN(list, "</ul>", 2)[0], "must be at most") {
		t.Errorf("the German refusal lists an English reason:\n%s", body)
	}
	p := submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 2, "comment": strings.Repeat("x", 501), "language": "de"}).
		expect(t, 422, feedback.EValidation).problem(t)
	if len(p.InvalidParams) != 1 || p.InvalidParams[0].Name != "comment" || p.InvalidParams[0].Reason != "must be at most 500 characters (got 501)" {
		t.Errorf("the API answered %+v", p.InvalidParams)
	}
}

func TestVisitorJSON(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "JSON")
		id := feedback.NewID()
		body := map[string]any{"id": id, "rating": 4, "tags": []string{"no_soap"}}
		var h feedback.HygieneSubmission
		submit(t, ts, f.Hygiene.Code, body).expect(t, 201, "").decode(t, &h)
		if h.ID != id || h.Rating != 4 || h.CreatedAt.IsZero() {
			t.Errorf("answered %+v", h)
		}
		var again feedback.HygieneSubmission
		submit(t, ts, f.Hygiene.Code, body).expect(t, 200, "").decode(t, &again)
		if again.CreatedAt != h.CreatedAt || again.ID != h.ID {
			t.Errorf("a repeat answered %+v; want the stored %+v", again, h)
		}
		body["rating"] = 5
		submit(t, ts, f.Hygiene.Code, body).expect(t, 409, feedback.EIdempotencyConflict)
		for name, b := range map[string]any{
			"rating out of range": map[string]any{"id": feedback.NewID(), "rating": 6},
			"unknown field":       map[string]any{"id": feedback.NewID(), "rating": 3, "mood": "ok"},
			"answers on hygiene":  map[string]any{"id": feedback.NewID(), "rating": 3, "answers": map[string]any{}},
			"no id":               map[string]any{"rating": 3},
		} {
			t.Run(name, func(t *testing.T) {
				submit(t, ts, f.Hygiene.Code, b).expect(t, 422, feedback.EValidation)
			})
		}
		submit(t, ts, f.Hygiene.Code, `{"id":`).expect(t, 400, feedback.EMalformedBody)
		submit(t, ts, f.Hygiene.Code, `{"id":"`+feedback.NewID()+`","rating":3,"comment":"`+strings.Repeat("x", 70000)+`"}`).expect(t, 413, feedback.EPayloadTooLarge)
		ts.do(t, req{method: "POST", path: "/q/" + f.Hygiene.Code, body: "x", contentType: "text/plain"}).expect(t, 415, feedback.EUnsupportedMediaType)
		tampered := f.Hygiene.Code[:10] + flipChar(f.Hygiene.Code[10]) + f.Hygiene.Code[11:]
		submit(t, ts, tampered, map[string]any{"id": feedback.NewID(), "rating": 3}).expect(t, 404, feedback.ENotFound)
		if n := countHygiene(t, ts, f); n != 1 {
			t.Errorf("%d rows; want only the first submission", n)
		}
		var rr feedback.ReviewResponse
		submit(t, ts, f.RPoster.Code, map[string]any{"id": feedback.NewID(), "rating": 5, "comment": "Great",
			"contact_email": "ann@example.com", "contact_consent": true, "language": "de"}).expect(t, 201, "").decode(t, &rr)
		if rr.ReviewID != f.Review.ID || rr.ContactEmail != "ann@example.com" || !rr.ContactConsent || rr.Language != "de" {
			t.Errorf("review response %+v", rr)
		}
		var sr feedback.SurveyResponse
		submit(t, ts, f.SPoster.Code, map[string]any{"id": feedback.NewID(), "answers": map[string]any{"overall": 3, "why": "b"}}).
			expect(t, 201, "").decode(t, &sr)
		if sr.SurveyID != f.Survey.ID || sr.Answers["overall"] != float64(3) || sr.Answers["why"] != "b" {
			t.Errorf("survey response %+v", sr)
		}
		submit(t, ts, f.SPoster.Code, map[string]any{"id": feedback.NewID(), "answers": map[string]any{"why": "a"}}).
			expect(t, 422, feedback.EValidation)
	})
}

func TestVisitorConcurrentDuplicates(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Dup")
		body := map[string]any{"id": feedback.NewID(), "rating": 3}
		const n = 20
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { statuses[i] = submit(t, ts, f.Hygiene.Code, body).Status })
		}
		wg.Wait()
		created := 0
		for _, s := range statuses {
			switch s {
			case 201:
				created++
			case 200:
			default:
				t.Errorf("a duplicate send got %d", s)
			}
		}
		if created != 1 {
			t.Errorf("%d sends got 201; want exactly 1 (statuses %v)", created, statuses)
		}
		if rows := countHygiene(t, ts, f); rows != 1 {
			t.Errorf("%d rows after %d concurrent sends of one id; want 1", rows, n)
		}
		var events struct{ Data []feedback.Event }
		ts.do(t, req{method: "GET", path: "/api/v1/events?limit=1000", token: f.Token}).expect(t, 200, "").decode(t, &events)
		count := 0
		for _, e := range events.Data {
			if e.Type == feedback.EventHygieneSubmissionCreated {
				count++
			}
		}
		if count != 1 {
			t.Errorf("%d hygiene_submission.created events; want 1", count)
		}
	})
}

func TestVisitorRevokedPoster(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Revoked")
		before := ts.Clock.Now().Add(-time.Minute)
		ts.Clock.Add(time.Second)
		ts.do(t, req{method: "POST", path: "/api/v1/posters/" + f.Hygiene.ID + "/revoke", token: f.Token}).expect(t, 200, "")
		r := ts.do(t, req{method: "GET", path: "/q/" + f.Hygiene.Code})
		if r.Status != 410 || !strings.Contains(string(r.Body), "no longer in use") {
			t.Errorf("GET of a revoked poster = %d %s", r.Status, r.Body)
		}
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 3}).expect(t, 410, feedback.EPosterRevoked)
		late := map[string]any{"id": feedback.NewID(), "rating": 3, "captured_at": before.Format(time.RFC3339Nano)}
		submit(t, ts, f.Hygiene.Code, late).expect(t, 201, "")
		ts.Clock.Add(7*24*time.Hour + time.Minute)
		late["id"], late["captured_at"] = feedback.NewID(), ts.Clock.Now().Add(-8*24*time.Hour).Format(time.RFC3339)
		submit(t, ts, f.Hygiene.Code, late).expect(t, 410, feedback.EPosterRevoked)
		if n := countHygiene(t, ts, f); n != 1 {
			t.Errorf("%d rows; want the one captured before revocation", n)
		}
	})
}

func TestVisitorInactiveForm(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Paused")
		before := ts.Clock.Now()
		ts.Clock.Add(time.Minute)
		ts.do(t, req{method: "PATCH", path: "/api/v1/review/" + f.Review.ID, token: f.Token, body: map[string]any{"status": "paused"}}).expect(t, 200, "")
		submit(t, ts, f.RPoster.Code, map[string]any{"id": feedback.NewID(), "rating": 3}).expect(t, 409, feedback.EFormNotActive)
		submit(t, ts, f.RPoster.Code, map[string]any{"id": feedback.NewID(), "rating": 3, "captured_at": before.Format(time.RFC3339)}).expect(t, 201, "")
		if r := ts.do(t, req{method: "GET", path: "/q/" + f.RPoster.Code}); r.Status != 409 {
			t.Errorf("GET of a paused review's poster = %d", r.Status)
		}
	})
}

// TestVisitorLimits: visitors have their own per-IP budget and never use
// a workspace's API budget.
func TestVisitorLimits(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ts := MustOpenServer(t, kind, func(c *feedbackhttp.Config) {
				c.RateLimit = 30
				c.VisitorLimits.PerIP = 5
			})
			f := ts.newFixture(t, "Limits")
			remaining := func() string {
				return ts.do(t, req{method: "GET", path: "/api/v1/review", token: f.Token}).Header.Get("X-RateLimit-Remaining")
			}
			first := remaining()
			for range 3 {
				submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 4}).expect(t, 201, "")
			}
			if got := remaining(); got == first || got != decrement(first) {
				t.Errorf("API remaining went %s -> %s across 3 visitor submissions; want one less", first, got)
			}
			for remaining() != "0" {
			}
			ts.do(t, req{method: "GET", path: "/api/v1/review", token: f.Token}).expect(t, 429, feedback.ERateLimited)
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 4}).expect(t, 201, "")
			submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 4}).expect(t, 201, "")
			r := submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 4}).expect(t, 429, feedback.ERateLimited)
			if r.Header.Get("Retry-After") == "" || r.Header.Get("X-RateLimit-Limit") != "5" {
				t.Errorf("visitor 429 headers: %v", r.Header)
			}
		})
	}
}

func decrement(s string) string {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return strconv.Itoa(n - 1)
}

// TestVisitorPagesStayPages: a browser that hits the visitor limit or
// sends an odd ?lang= gets a readable page, never raw JSON or an echo.
func TestVisitorPagesStayPages(t *testing.T) {
	ts := MustOpenServer(t, "sqlite", func(c *feedbackhttp.Config) { c.VisitorLimits.PerIP = 2 })
	f := ts.newFixture(t, "Pages")
	r := ts.do(t, req{method: "GET", path: "/q/" + f.Hygiene.Code + "?lang=de-!!"}).expect(t, 200, "")
	if r.Header.Get("Content-Language") != "de" || !hasInput(string(r.Body), input(`name="language"`, `value="de"`)) {
		t.Errorf("?lang=de-!! gave Content-Language %q", r.Header.Get("Content-Language"))
	}
	ts.do(t, req{method: "GET", path: "/q/" + f.Hygiene.Code}).expect(t, 200, "")
	r = ts.do(t, req{method: "GET", path: "/q/" + f.Hygiene.Code, header: http.Header{"Accept-Language": {"es"}}})
	if r.Status != 429 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(r.Body), "Demasiados envíos") || r.Header.Get("Retry-After") == "" {
		t.Errorf("the third page view = %d %q %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	var h feedback.HygieneSubmission
	ts.do(t, req{method: "POST", path: "/q/" + f.Hygiene.Code + "?lang=de-!!", body: map[string]any{"id": feedback.NewID(), "rating": 2},
		contentType: "application/json"}).expect(t, 201, "").decode(t, &h)
	if h.Language != "de" {
		t.Errorf("stored language %q; want de", h.Language)
	}
}

// input describes an <input> by attributes, in any order, for hasInput.
func input(attrs ...string) string { return "input:" + strings.Join(attrs, "\x00") }

var inputTag = regexp.MustCompile(`<input[^>]*>`)

// hasInput reports whether body has an <input> holding every attribute of
// the description made by input (go-app writes attributes in any order).
func hasInput(body, desc string) bool {
	attrs, ok := strings.CutPrefix(desc, "input:")
	if !ok {
		return false
	}
	for _, tag := range inputTag.FindAllString(body, -1) {
		all := true
		for _, a := range strings.Split(attrs, "\x00") {
			all = all && strings.Contains(tag, a)
		}
		if all {
			return true
		}
	}
	return false
}
