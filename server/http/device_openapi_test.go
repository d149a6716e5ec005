package http_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	feedbackhttp "github.com/feedbackhq/feedback/server/http"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// The tests below exercise the answers of the visitor and kiosk endpoints
// that the other tests leave out, so that the validator checks each
// documented response against the server: the pages a form post fails
// with, the 401s, 413s, 415s and 429s, and the kiosk's forms.

const jsonType = "application/json"

// postForm posts form values to a poster, as the visitor page does.
func postForm(t *testing.T, ts *TestServer, code string, v url.Values) *result {
	t.Helper()
	return ts.do(t, req{method: "POST", path: "/q/" + code, body: v.Encode(), contentType: "application/x-www-form-urlencoded"})
}

// expectPage fails unless r is an HTML page of status that contains want.
func expectPage(t *testing.T, r *result, status int, want string) *result {
	t.Helper()
	if r.Status != status || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.Body), want) {
		t.Fatalf("got %d %s %q; want a %d page with %q", r.Status, r.Header.Get("Content-Type"), r.Body, status, want)
	}
	return r
}

// eachStoreLimited is eachStore on servers with the visitor limits l.
func eachStoreLimited(t *testing.T, l feedbackhttp.VisitorLimits, fn func(t *testing.T, ts *TestServer)) {
	t.Helper()
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, MustOpenServer(t, kind, func(c *feedbackhttp.Config) { c.VisitorLimits = l }))
		})
	}
}

// expectNoLimit fails when r carries rate-limit headers.
func expectNoLimit(t *testing.T, r *result) {
	t.Helper()
	for k := range r.Header {
		if strings.HasPrefix(k, "X-Ratelimit-") {
			t.Errorf("%s: %v; the response of an uncounted request has no rate-limit headers", k, r.Header[k])
		}
	}
}

func TestDeviceVisitorPages(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Pages")
		r := ts.do(t, req{method: "GET", path: "/q/" + f.SPoster.Code + "?lang=es"}).expect(t, 200, "")
		if got := r.Header.Get("Content-Language"); got != "es" {
			t.Errorf("Content-Language = %q; want es", got)
		}
		if r.Header.Get("X-RateLimit-Limit") == "" {
			t.Error("a form page has no rate-limit headers")
		}
		// The thank-you page checks the shape of the code only, and is
		// not counted.
		thanks := ts.do(t, req{method: "GET", path: "/q/" + f.Hygiene.Code + "/thanks?lang=de"}).expect(t, 200, "")
		expectNoLimit(t, thanks)
		if got := thanks.Header.Get("Content-Language"); got != "de" {
			t.Errorf("Content-Language = %q; want de", got)
		}
		bad := ts.do(t, req{method: "GET", path: "/q/short/thanks", header: http.Header{"Accept-Language": {"fr"}}})
		expectPage(t, bad, 404, "lang=\"fr\"")
		expectNoLimit(t, bad)
	})
}

// TestDeviceVisitorFormPosts: a form post gets pages, of every status but
// 429, and a survey's and a review's forms are stored like their JSON.
func TestDeviceVisitorFormPosts(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Forms")
		page := ts.do(t, req{method: "GET", path: "/q/" + f.SPoster.Code}).expect(t, 200, "")
		m := hiddenID.FindStringSubmatch(string(page.Body))
		if m == nil {
			t.Fatal("the survey form has no hidden submission id")
		}
		survey := url.Values{"id": {m[1]}, "language": {"en"}, "q.overall": {"4"}, "q.why": {"b"}}
		r := postForm(t, ts, f.SPoster.Code, survey).expect(t, 303, "")
		if loc := r.Header.Get("Location"); loc != "/q/"+f.SPoster.Code+"/thanks?lang=en" {
			t.Errorf("Location = %q", loc)
		}
		var sr feedback.SurveyResponse
		// The same submission as JSON is the same body: it answers the
		// stored record.
		submit(t, ts, f.SPoster.Code, map[string]any{"id": m[1], "language": "en", "answers": map[string]any{"overall": 4, "why": "b"}}).
			expect(t, 200, "").decode(t, &sr)
		if sr.Answers["overall"] != float64(4) || sr.Answers["why"] != "b" || sr.Source != feedback.SourceQR {
			t.Errorf("stored %+v", sr)
		}

		review := url.Values{"id": {feedback.NewID()}, "rating": {"5"}, "comment": {"Nice"},
			"contact_email": {"ann@example.com"}, "contact_consent": {"true"}}
		postForm(t, ts, f.RPoster.Code, review).expect(t, 303, "")
		// A browser sends the empty email field; it counts as absent.
		postForm(t, ts, f.RPoster.Code, url.Values{"id": {feedback.NewID()}, "rating": {"4"}, "comment": {""}, "contact_email": {""}}).
			expect(t, 303, "")
		// Consent without an email: the form comes back with the error.
		bad := postForm(t, ts, f.RPoster.Code, url.Values{"id": {feedback.NewID()}, "rating": {"4"}, "contact_consent": {"on"}})
		expectPage(t, bad, 422, `name="contact_email"`)

		hygiene := url.Values{"id": {feedback.NewID()}, "rating": {"3"}}
		postForm(t, ts, f.Hygiene.Code, hygiene).expect(t, 303, "")
		conflict := url.Values{"id": hygiene["id"], "rating": {"4"}}
		expectPage(t, postForm(t, ts, f.Hygiene.Code, conflict), 409, "<html")
		// An unknown field comes back as the form with the field named.
		unknown := postForm(t, ts, f.Hygiene.Code, url.Values{"id": {feedback.NewID()}, "rating": {"3"}, "mood": {"ok"}})
		expectPage(t, unknown, 422, "mood")
		if !strings.Contains(string(unknown.Body), "<form") {
			t.Error("a post with an unknown field did not get the form back")
		}
		r = ts.do(t, req{method: "POST", path: "/q/" + f.Hygiene.Code, body: "id=%zz", contentType: "application/x-www-form-urlencoded"})
		expectPage(t, r, 400, "<html")
		long := url.Values{"id": {feedback.NewID()}, "rating": {"3"}, "comment": {strings.Repeat("x", 70000)}}
		expectPage(t, postForm(t, ts, f.Hygiene.Code, long), 413, "<html")
		tampered := f.Hygiene.Code[:10] + flipChar(f.Hygiene.Code[10]) + f.Hygiene.Code[11:]
		expectPage(t, postForm(t, ts, tampered, hygiene), 404, "not valid")

		ts.Clock.Add(time.Second)
		ts.do(t, req{method: "PATCH", path: "/api/v1/review/" + f.Review.ID, token: f.Token, body: map[string]any{"status": "paused"}}).expect(t, 200, "")
		expectPage(t, postForm(t, ts, f.RPoster.Code, url.Values{"id": {feedback.NewID()}, "rating": {"4"}}), 409, "<html")
		ts.do(t, req{method: "POST", path: "/api/v1/posters/" + f.Hygiene.ID + "/revoke", token: f.Token}).expect(t, 200, "")
		expectPage(t, postForm(t, ts, f.Hygiene.Code, url.Values{"id": {feedback.NewID()}, "rating": {"4"}}), 410, "no longer in use")
	})
}

// TestDeviceVisitorLimits: the page views and the form posts of visitors
// are limited, with pages for browsers and problems for JSON clients.
func TestDeviceVisitorLimits(t *testing.T) {
	limits := feedbackhttp.VisitorLimits{PerIP: 2, PerPoster: 1}
	eachStoreLimited(t, limits, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Busy")
		for range 2 {
			ts.do(t, req{method: "GET", path: "/q/" + f.Hygiene.Code}).expect(t, 200, "")
		}
		r := expectPage(t, ts.do(t, req{method: "GET", path: "/q/" + f.Hygiene.Code}), 429, "try again")
		if r.Header.Get("X-RateLimit-Limit") != "2" || r.Header.Get("Retry-After") == "" {
			t.Errorf("page view 429 headers: %v", r.Header)
		}
		// Submissions have their own per-IP budget, then the poster's.
		postForm(t, ts, f.Hygiene.Code, url.Values{"id": {feedback.NewID()}, "rating": {"2"}}).expect(t, 303, "")
		r = expectPage(t, postForm(t, ts, f.Hygiene.Code, url.Values{"id": {feedback.NewID()}, "rating": {"2"}}), 429, "try again")
		submit(t, ts, f.Hygiene.Code, map[string]any{"id": feedback.NewID(), "rating": 2}).expect(t, 429, feedback.ERateLimited)
		if r.Header.Get("X-RateLimit-Limit") != "1" {
			t.Errorf("the poster's 429 says limit %q; want 1", r.Header.Get("X-RateLimit-Limit"))
		}
	})
}

func TestDeviceKioskForms(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Forms")
		type config struct {
			Kiosk feedback.Kiosk
			Form  feedback.FormView
		}
		for _, form := range []string{"hygiene", "survey"} {
			in := map[string]any{"location_id": f.Location.ID, "form": form}
			if form == "survey" {
				in["survey_id"] = f.Survey.ID
			}
			cred, _ := pairKioskCred(t, ts, f, in)
			var cfg config
			ts.do(t, req{method: "GET", path: "/kiosk/config", token: cred}).expect(t, 200, "").decode(t, &cfg)
			if string(cfg.Form.Form) != form || (form == "survey") != (cfg.Form.Survey != nil) || cfg.Form.Review != nil {
				t.Errorf("%s kiosk config %+v", form, cfg.Form)
			}
		}

		cred, _ := pairKioskCred(t, ts, f, map[string]any{"location_id": f.Location.ID, "form": "review", "review_id": f.Review.ID})
		item := map[string]any{"id": feedback.NewID(), "rating": 4, "captured_at": ts.Clock.Now().Format(time.RFC3339)}
		var out feedback.SyncResponse
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: map[string]any{"submissions": []any{item}}}).
			expect(t, 200, "").decode(t, &out)
		if len(out.Results) != 1 || out.Results[0].Status != 201 {
			t.Fatalf("sync %+v", out)
		}
		ts.Clock.Add(time.Minute)
		ts.do(t, req{method: "PATCH", path: "/api/v1/review/" + f.Review.ID, token: f.Token, body: map[string]any{"status": "paused"}}).expect(t, 200, "")
		late := map[string]any{"id": feedback.NewID(), "rating": 2}
		// Neither an object nor a submission: refused on its own.
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: map[string]any{"submissions": []any{item, late, 5}}}).
			expect(t, 200, "").decode(t, &out)
		want := []struct {
			status int
			code   string
		}{{200, ""}, {409, feedback.EFormNotActive}, {422, feedback.EValidation}}
		for i, w := range want {
			r := out.Results[i]
			if r.Status != w.status || (w.code != "") != (r.Problem != nil) || (r.Problem != nil && r.Problem.Code != w.code) {
				t.Errorf("item %d: %+v; want status %d, code %q", i, r, w.status, w.code)
			}
		}
	})
}

// TestDeviceKioskRefusals: what the kiosk endpoints answer to requests
// that are wrong as a whole.
func TestDeviceKioskRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Refusals")
		cred, _ := pairKioskCred(t, ts, f, map[string]any{"location_id": f.Location.ID, "form": "hygiene"})

		ts.do(t, req{method: "POST", path: "/kiosk/pair", body: `{"code":`, contentType: jsonType}).expect(t, 400, feedback.EMalformedBody)
		ts.do(t, req{method: "POST", path: "/kiosk/pair", body: "7KQ2-M9XD", contentType: "text/plain"}).expect(t, 415, feedback.EUnsupportedMediaType)
		ts.do(t, req{method: "POST", path: "/kiosk/pair", body: `{"code":"` + strings.Repeat("7", 1<<20) + `"}`, contentType: jsonType}).expect(t, 413, feedback.EPayloadTooLarge)
		ts.do(t, req{method: "POST", path: "/kiosk/pair", body: map[string]any{"code": "7KQ2-M9XD", "name": "x"}}).expect(t, 422, feedback.EValidation)

		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: map[string]any{"submissions": []any{}}}).expect(t, 422, feedback.EValidation)
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: `{}`, contentType: jsonType}).expect(t, 422, feedback.EValidation)
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: `{"submissions":[`, contentType: jsonType}).expect(t, 400, feedback.EMalformedBody)
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: `{}`, contentType: "text/plain"}).expect(t, 415, feedback.EUnsupportedMediaType)
		big := `{"submissions":[{"id":"` + feedback.NewID() + `","rating":3,"comment":"` + strings.Repeat("x", 8<<20) + `"}]}`
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: big, contentType: jsonType}).expect(t, 413, feedback.EPayloadTooLarge)

		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: `{"queue_depth":`, contentType: jsonType}).expect(t, 400, feedback.EMalformedBody)
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: `{}`, contentType: "text/plain"}).expect(t, 415, feedback.EUnsupportedMediaType)
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: `{"queue_depth":1,"battery":50}`, contentType: jsonType}).expect(t, 422, feedback.EValidation)
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: `{"queue_depth":"` + strings.Repeat("9", 1<<20) + `"}`, contentType: jsonType}).expect(t, 413, feedback.EPayloadTooLarge)
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: `{}`, contentType: jsonType}).expect(t, 204, "")

		// Credentials: none, not a kiosk credential, unknown.
		for _, tt := range []struct{ token, code string }{
			{"", feedback.EUnauthenticated},
			{f.Token, feedback.EInvalidToken},
			{"fbkk_" + strings.Repeat("A", 40), feedback.EInvalidToken},
		} {
			r := ts.do(t, req{method: "GET", path: "/kiosk/config", token: tt.token}).expect(t, 401, tt.code)
			if !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), `Bearer realm="feedback"`) {
				t.Errorf("WWW-Authenticate = %q", r.Header.Get("WWW-Authenticate"))
			}
		}
	})
}

// TestDeviceKioskLimits: a kiosk has its own budget, pairing attempts and
// refused credentials the client IP's.
func TestDeviceKioskLimits(t *testing.T) {
	limits := feedbackhttp.VisitorLimits{PerKiosk: 2, APIPerIP: 2}
	eachStoreLimited(t, limits, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Limits")
		cred, _ := pairKioskCred(t, ts, f, map[string]any{"location_id": f.Location.ID, "form": "hygiene"})
		ts.do(t, req{method: "GET", path: "/kiosk/config", token: cred}).expect(t, 200, "")
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: cred, body: map[string]any{"queue_depth": 0}}).expect(t, 204, "")
		r := ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred,
			body: map[string]any{"submissions": []any{map[string]any{"id": feedback.NewID(), "rating": 1}}}}).expect(t, 429, feedback.ERateLimited)
		if r.Header.Get("X-RateLimit-Limit") != "2" || r.Header.Get("Retry-After") == "" {
			t.Errorf("kiosk 429 headers: %v", r.Header)
		}

		unknown := "fbkk_" + strings.Repeat("B", 40)
		for range 2 {
			ts.do(t, req{method: "GET", path: "/kiosk/config", token: unknown}).expect(t, 401, feedback.EInvalidToken)
		}
		ts.do(t, req{method: "POST", path: "/kiosk/heartbeat", token: unknown, body: map[string]any{}}).expect(t, 429, feedback.ERateLimited)

		// Pairing attempts: 20 per minute and client IP; the one above
		// was the first.
		for i := 2; i <= 20; i++ {
			ts.do(t, req{method: "POST", path: "/kiosk/pair", body: map[string]any{"code": "0000-000" + strconv.Itoa(i%10)}}).expect(t, 422, feedback.EValidation)
		}
		r = ts.do(t, req{method: "POST", path: "/kiosk/pair", body: map[string]any{"code": "0000-0000"}}).expect(t, 429, feedback.ERateLimited)
		if r.Header.Get("X-RateLimit-Limit") != "20" {
			t.Errorf("pairing 429 says limit %q; want 20", r.Header.Get("X-RateLimit-Limit"))
		}
	})
}
