package openapitest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// loadDoc reads the service's document from the source tree, so that
// these tests do not depend on the server package compiling.
func loadDoc(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("../../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var (
	sharedOnce sync.Once
	sharedV    *Validator
	sharedErr  error
)

// shared returns one Validator for the tests that do not look at
// coverage: loading the document takes a while.
func shared(t testing.TB) *Validator {
	t.Helper()
	sharedOnce.Do(func() { sharedV, sharedErr = Load(loadDoc(t)) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedV
}

// recorder is a testing.TB that collects failures instead of failing, so
// that the cases below can expect the validator to fail.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

func (r *recorder) failures() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.errs, "\n")
}

const (
	reviewID  = "019a8f2e-4b1c-7d3e-9f20-6a5b4c3d2e1f"
	requestID = "019a8f2e-7c6d-7e5f-8a9b-0c1d2e3f4a5b"
	stamp     = "2026-11-21T07:47:29.507Z"
)

var reviewJSON = `{"id":"` + reviewID + `","title":"How was your stay?","status":"draft",` +
	`"created_at":"` + stamp + `","updated_at":"` + stamp + `","status_changed_at":"` + stamp + `"}`

func problemJSON(status int, code string) string {
	return fmt.Sprintf(`{"type":"urn:feedback:problem:%s","title":"T","status":%d,"detail":"D",`+
		`"code":"%s","request_id":"%s","invalid_params":[]}`, code, status, code, requestID)
}

// answer is what the fake server answers.
type answer struct {
	status  int
	header  map[string]string // set after the standard headers; "" deletes
	ctype   string
	body    string
	noLimit bool // leave out the rate-limit headers
}

// handler answers a with the headers every API response carries.
func (a answer) handler(t *testing.T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if !a.noLimit {
			h.Set("X-RateLimit-Limit", "1000")
			h.Set("X-RateLimit-Remaining", "999")
			h.Set("X-RateLimit-Reset", "1795247280")
		}
		h.Set("X-Request-Id", requestID)
		if a.ctype != "" {
			h.Set("Content-Type", a.ctype)
		}
		for k, v := range a.header {
			if v == "" {
				h.Del(k)
			} else {
				h.Set(k, v)
			}
		}
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.body)
	}
}

// do sends the request of x through a view of the shared validator that
// reports to a recorder, and answers the failures and the response body as read by
// the caller.
func do(t *testing.T, x exchange) (failures, respBody string) {
	t.Helper()
	srv := httptest.NewServer(x.a.handler(t))
	defer srv.Close()
	rec := &recorder{TB: t}
	v := shared(t).For(rec)
	for i := 0; i+1 < len(x.allow); i += 2 {
		v.AllowUnknown(x.allow[i], x.allow[i+1])
	}
	client := &http.Client{Transport: v.Transport(nil),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var rd io.Reader
	if x.body != "" {
		rd = strings.NewReader(x.body)
	}
	req, err := http.NewRequestWithContext(t.Context(), x.method, srv.URL+x.path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer fbk_0123456789012345678901234567890123456789")
	if x.ctype != "" {
		req.Header.Set("Content-Type", x.ctype)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rec.failures(), string(b)
}

// exchange is one case of the tables below: a request and what the fake
// server answers to it.
type exchange struct {
	name         string
	a            answer
	method, path string
	ctype, body  string
	allow        []string // method, path pairs for AllowUnknown
}

const (
	json    = "application/json"
	problem = "application/problem+json"
	html    = "text/html; charset=utf-8"
	form    = "application/x-www-form-urlencoded"
)

// A poster code, and a hygiene submission through it.
const (
	code        = "AZqPLisceT6fWmtMfY4PGqG7nxx2b0n-5cH3oyQKkQo"
	posterID    = "019a8f2e-2b3c-7d4e-9f5a-6b7c8d9e0f1a"
	locationID  = "019a8f2e-1a2b-7c3d-8e4f-5a6b7c8d9e0f"
	hygieneJSON = `{"id":"` + reviewID + `","rating":2,"location_id":"` + locationID + `","poster_id":"` + posterID +
		`","tags":["no_soap"],"comment":"","language":"en","source":"qr","captured_at":"` + stamp + `","created_at":"` + stamp + `"}`
	thanks = "/q/" + code + "/thanks?lang=en"
)

// page is the answer of a visitor page.
func page(status int) answer {
	return answer{status: status, ctype: html, body: "<!doctype html><p>Hi</p>", header: map[string]string{"Content-Language": "en"}}
}

func TestValidatorAcceptsConformingTraffic(t *testing.T) {
	tests := []exchange{
		{"get", answer{status: 200, ctype: json, body: reviewJSON}, "GET", "/api/v1/review/" + reviewID, "", "", nil},
		{"alias prefix", answer{status: 200, ctype: json, body: reviewJSON}, "GET", "/api/review/" + reviewID, "", "", nil},
		{"problem", answer{status: 404, ctype: problem, body: problemJSON(404, "not_found")},
			"GET", "/api/v1/review/" + reviewID, "", "", nil},
		{"list", answer{status: 200, ctype: json, body: `{"data":[` + reviewJSON + `],"meta":{"total":1,"page":1,"per_page":50,"pages":1}}`},
			"GET", "/api/v1/review?page=1&per_page=50", "", "", nil},
		{"create", answer{status: 201, ctype: json, body: reviewJSON, header: map[string]string{"Location": "/api/v1/review/" + reviewID}},
			"POST", "/api/v1/review", json, `{"title":"How was your stay?"}`, nil},
		{"invalid request refused", answer{status: 422, ctype: problem, body: problemJSON(422, "validation_failed")},
			"POST", "/api/v1/review", json, `{"title":"x","extra":1}`, nil},
		{"wrong media type refused", answer{status: 415, ctype: problem, body: problemJSON(415, "unsupported_media_type")},
			"POST", "/api/v1/review", "text/plain", `title`, nil},
		{"unauthorized", answer{status: 401, ctype: problem, body: problemJSON(401, "token_revoked"),
			header: map[string]string{"WWW-Authenticate": `Bearer realm="feedback", error="invalid_token"`}},
			"GET", "/api/v1/hygiene", "", "", nil},
		{"rate limited", answer{status: 429, ctype: problem, body: problemJSON(429, "rate_limited"),
			header: map[string]string{"Retry-After": "3"}}, "GET", "/api/v1/events?after=3", "", "", nil},
		{"internal error while counting", answer{status: 500, ctype: problem, body: problemJSON(500, "internal"), noLimit: true},
			"GET", "/api/v1/kiosks", "", "", nil},
		{"no content", answer{status: 204}, "DELETE", "/api/v1/webhooks/" + reviewID, "", "", nil},
		{"png", answer{status: 200, ctype: "image/png", body: "\x89PNG\r\n"}, "GET", "/api/v1/posters/" + reviewID + "/qr.png?size=64", "", "", nil},
		{"pdf", answer{status: 200, ctype: "application/pdf", body: "%PDF-1.7"}, "GET", "/api/v1/posters/" + reviewID + "/poster.pdf", "", "", nil},
		{"unknown route allowed", answer{status: 404, ctype: problem, body: "anything"}, "GET", "/api/v1/nope", "", "", []string{"GET", "/api/v1/nope"}},
		{"bad method allowed", answer{status: 405, ctype: problem, body: "anything"}, "PUT", "/api/review", "", "", []string{"*", "/review"}},
		{"outside the API", answer{status: 200, ctype: "text/plain", body: "ok"}, "GET", "/healthz", "", "", nil},
		{"page", page(200), "GET", "/q/" + code + "?lang=de", "", "", nil},
		{"page of an error", page(410), "GET", "/q/" + code, "", "", nil},
		{"visitor JSON", answer{status: 201, ctype: json, body: hygieneJSON},
			"POST", "/q/" + code, json, `{"id":"` + reviewID + `","rating":2,"tags":["no_soap"]}`, nil},
		{"form post", answer{status: 303, header: map[string]string{"Location": thanks}},
			"POST", "/q/" + code, form, "id=" + reviewID + "&rating=2&tags=no_soap&tags=bad_smell&comment=&q.x=1", nil},
		{"form refused with the form", page(422), "POST", "/q/" + code, form, "id=" + reviewID + "&rating=9", nil},
		{"form post rate-limited", answer{status: 429, ctype: problem, body: problemJSON(429, "rate_limited"),
			header: map[string]string{"Retry-After": "3"}}, "POST", "/q/" + code, form, "id=" + reviewID, nil},
		{"uncounted page", answer{status: 200, ctype: html, body: "<p>Thanks</p>", noLimit: true,
			header: map[string]string{"Content-Language": "en"}}, "GET", thanks, "", "", nil},
		{"kiosk", answer{status: 204}, "POST", "/kiosk/heartbeat", json, `{"queue_depth":1}`, nil},
		{"kiosk refused", answer{status: 401, ctype: problem, body: problemJSON(401, "unauthenticated"),
			header: map[string]string{"WWW-Authenticate": `Bearer realm="feedback"`}}, "GET", "/kiosk/config", "", "", nil},
		{"unknown device route allowed", answer{status: 404, ctype: problem, body: "anything"}, "GET", "/kiosk/nothing", "", "", []string{"*", "/kiosk/nothing"}},
		{"next to a device prefix", answer{status: 404, ctype: "text/plain", body: "404 page not found"}, "GET", "/kiosks/pair", "", "", nil},
		{"next to a device prefix 2", answer{status: 404, ctype: "text/plain", body: "404 page not found"}, "GET", "/qr", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failures, body := do(t, tt)
			if failures != "" {
				t.Errorf("validator failed conforming traffic:\n%s", failures)
			}
			if body != tt.a.body {
				t.Errorf("caller read body %q, want %q", body, tt.a.body)
			}
		})
	}
}

func TestValidatorRejectsMismatches(t *testing.T) {
	tests := []struct {
		exchange
		want string // in the failure
	}{
		{exchange{"undocumented field", answer{status: 200, ctype: json, body: strings.Replace(reviewJSON, "{", `{"extra":1,`, 1)},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "extra"},
		{exchange{"wrong type", answer{status: 200, ctype: json, body: strings.Replace(reviewJSON, `"How was your stay?"`, "5", 1)},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "title"},
		{exchange{"missing field", answer{status: 200, ctype: json, body: strings.Replace(reviewJSON, `"status":"draft",`, "", 1)},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "status"},
		{exchange{"timestamp without milliseconds", answer{status: 200, ctype: json, body: strings.Replace(reviewJSON, stamp, "2026-11-21T07:47:29Z", 1)},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "created_at"},
		{exchange{"missing rate-limit headers", answer{status: 200, ctype: json, body: reviewJSON, noLimit: true},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "X-RateLimit-"},
		{exchange{"missing request id", answer{status: 200, ctype: json, body: reviewJSON, header: map[string]string{"X-Request-Id": ""}},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "X-Request-Id"},
		{exchange{"undocumented status", answer{status: 418, ctype: json, body: `{}`},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "status is not supported"},
		{exchange{"code of another status", answer{status: 404, ctype: problem, body: problemJSON(404, "conflict")},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "code"},
		{exchange{"wrong content type", answer{status: 200, ctype: "text/plain", body: reviewJSON},
			"GET", "/api/v1/review/" + reviewID, "", "", nil}, "Content-Type"},
		{exchange{"binary of the wrong type", answer{status: 200, ctype: "image/jpeg", body: "jpeg"},
			"GET", "/api/v1/posters/" + reviewID + "/qr.png", "", "", nil}, "Content-Type"},
		{exchange{"created without Location", answer{status: 201, ctype: json, body: reviewJSON},
			"POST", "/api/v1/review", json, `{"title":"How was your stay?"}`, nil}, "Location"},
		{exchange{"401 without challenge", answer{status: 401, ctype: problem, body: problemJSON(401, "unauthenticated")},
			"GET", "/api/v1/hygiene", "", "", nil}, "WWW-Authenticate"},
		{exchange{"429 without Retry-After", answer{status: 429, ctype: problem, body: problemJSON(429, "rate_limited")},
			"GET", "/api/v1/hygiene", "", "", nil}, "Retry-After"},
		{exchange{"invalid body accepted", answer{status: 201, ctype: json, body: reviewJSON, header: map[string]string{"Location": "/api/v1/review/" + reviewID}},
			"POST", "/api/v1/review", json, `{"title":"x","extra":1}`, nil}, "did not refuse"},
		{exchange{"invalid parameter accepted", answer{status: 200, ctype: json, body: `{"data":[],"meta":{"total":0,"page":1,"per_page":500,"pages":0}}`},
			"GET", "/api/v1/review?per_page=500", "", "", nil}, "did not refuse"},
		{exchange{"unknown route", answer{status: 404, ctype: problem, body: problemJSON(404, "not_found")},
			"GET", "/api/v1/nope", "", "", nil}, "no operation GET /nope"},
		{exchange{"bad method", answer{status: 405, ctype: problem, body: problemJSON(405, "method_not_allowed")},
			"PUT", "/api/review", "", "", nil}, "no operation PUT /review"},
		{exchange{"page instead of a problem", answer{status: 422, ctype: html, body: "<p>no</p>"},
			"POST", "/kiosk/pair", json, `{"code":"x"}`, nil}, "Content-Type"},
		{exchange{"page of an undocumented status", page(418), "GET", "/q/" + code, "", "", nil}, "status is not supported"},
		{exchange{"JSON instead of a page", answer{status: 200, ctype: json, body: `{}`, header: map[string]string{"Content-Language": "en"}},
			"GET", "/q/" + code, "", "", nil}, "Content-Type"},
		{exchange{"page without Content-Language", answer{status: 200, ctype: html, body: "<p>Hi</p>"},
			"GET", "/q/" + code, "", "", nil}, "Content-Language"},
		{exchange{"page without rate-limit headers", answer{status: 200, ctype: html, body: "<p>Hi</p>", noLimit: true,
			header: map[string]string{"Content-Language": "en"}}, "GET", "/q/" + code, "", "", nil}, "X-RateLimit-"},
		{exchange{"303 without Location", answer{status: 303}, "POST", "/q/" + code, form, "id=" + reviewID + "&rating=2", nil}, "Location"},
		{exchange{"invalid form accepted", answer{status: 303, header: map[string]string{"Location": thanks}},
			"POST", "/q/" + code, form, "id=" + reviewID + "&rating=9", nil}, "did not refuse"},
		{exchange{"invalid JSON submission accepted", answer{status: 201, ctype: json, body: hygieneJSON},
			"POST", "/q/" + code, json, `{"id":"` + reviewID + `","rating":9}`, nil}, "did not refuse"},
		{exchange{"record of no kind", answer{status: 201, ctype: json, body: strings.Replace(hygieneJSON, `"tags":["no_soap"],`, "", 1)},
			"POST", "/q/" + code, json, `{"id":"` + reviewID + `","rating":2}`, nil}, "SubmissionRecord"},
		{exchange{"unknown device route", answer{status: 404, ctype: problem, body: problemJSON(404, "not_found")},
			"GET", "/kiosk/nothing", "", "", nil}, "no operation GET /kiosk/nothing"},
		{exchange{"device path under the API", answer{status: 401, ctype: problem, body: problemJSON(401, "unauthenticated"),
			header: map[string]string{"WWW-Authenticate": `Bearer realm="feedback"`}}, "GET", "/api/v1/kiosk/config", "", "", nil},
			"no operation GET /kiosk/config"},
		{exchange{"API path at the root", answer{status: 404, ctype: problem, body: problemJSON(404, "not_found")},
			"GET", "/q/" + code + "/review", "", "", nil}, "no operation GET /q/" + code + "/review"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failures, body := do(t, tt.exchange)
			if !strings.Contains(failures, tt.want) {
				t.Errorf("failures %q do not mention %q", failures, tt.want)
			}
			if !strings.Contains(failures, tt.method) || !strings.Contains(failures, fmt.Sprint(tt.a.status)) {
				t.Errorf("failures %q do not name the method and status", failures)
			}
			if body != tt.a.body {
				t.Errorf("caller read body %q, want %q", body, tt.a.body)
			}
		})
	}
}

// roundTripFunc is a fake transport, for answers a real server cannot give.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestValidatorRejectsBodyOnNoContent checks a response that net/http
// servers never send: a 204 with a body.
func TestValidatorRejectsBodyOnNoContent(t *testing.T) {
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		answer{status: 204}.handler(t)(rec, r)
		resp := rec.Result()
		resp.Body = io.NopCloser(strings.NewReader("{}"))
		return resp, nil
	})
	rec := &recorder{TB: t}
	client := &http.Client{Transport: shared(t).For(rec).Transport(base)}
	req, err := http.NewRequestWithContext(t.Context(), "DELETE", "http://127.0.0.1/api/v1/webhooks/"+reviewID, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if f := rec.failures(); !strings.Contains(f, "without a body") {
		t.Errorf("failures %q do not mention the body", f)
	}
}

// TestValidatorLeavesRequestsAlone checks that the request reaches the
// server as sent: same body, no defaults added to the query.
func TestValidatorLeavesRequestsAlone(t *testing.T) {
	const sent = `{"title":"How was your stay?"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if string(b) != sent || r.URL.RawQuery != "" || r.URL.Path != "/api/v1/review" {
			t.Errorf("server got %s %q with body %q", r.URL.Path, r.URL.RawQuery, b)
		}
		answer{status: 201, ctype: "application/json", body: reviewJSON,
			header: map[string]string{"Location": "/api/v1/review/" + reviewID}}.handler(t)(w, r)
	}))
	defer srv.Close()
	client := &http.Client{Transport: shared(t).For(t).Transport(http.DefaultTransport)}
	resp, err := client.Post(srv.URL+"/api/v1/review", "application/json", strings.NewReader(sent))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// TestValidatorLeavesFormsAlone checks that a form post reaches the
// server as sent, byte for byte: kin-openapi decodes a form against the
// schema and, were it to set defaults, would encode it again without the
// fields the schema does not name (the survey answers).
func TestValidatorLeavesFormsAlone(t *testing.T) {
	const sent = "id=" + reviewID + "&q.why=b&tags=no_soap&q.multi=a&q.multi=c&rating=2&comment=&tags=bad_smell"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if string(b) != sent || r.ContentLength != int64(len(sent)) || r.Header.Get("Content-Type") != form ||
			r.URL.RawQuery != "lang=de" || r.URL.Path != "/q/"+code {
			t.Errorf("server got %s %q, %d bytes of %s: %q", r.URL.Path, r.URL.RawQuery, r.ContentLength, r.Header.Get("Content-Type"), b)
		}
		answer{status: 303, header: map[string]string{"Location": thanks}}.handler(t)(w, r)
	}))
	defer srv.Close()
	client := &http.Client{Transport: shared(t).For(t).Transport(nil),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Post(srv.URL+"/q/"+code+"?lang=de", form, strings.NewReader(sent))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 303 {
		t.Errorf("status %d", resp.StatusCode)
	}
}

func TestLocate(t *testing.T) {
	v := shared(t)
	tests := []struct {
		in, want     string
		atRoot, isOK bool
	}{
		{"/api/v1/review", "/review", false, true},
		{"/api/kiosks", "/kiosks", false, true},
		{"/api/v1/q/abc", "/q/abc", false, true},
		{"/q/abc", "/q/abc", true, true},
		{"/q", "", false, false},
		{"/kiosk", "", false, false}, // the kiosk page of the app
		{"/kiosk/config", "/kiosk/config", true, true},
		{"/kiosk/nothing", "/kiosk/nothing", true, true},
		{"/kiosks", "", false, false},
		{"/qr", "", false, false},
		{"/healthz", "", false, false},
		{"/", "", false, false},
	}
	for _, tt := range tests {
		got, atRoot, ok := v.locate(tt.in)
		if got != tt.want || atRoot != tt.atRoot || ok != tt.isOK {
			t.Errorf("locate(%q) = %q, %v, %v; want %q, %v, %v", tt.in, got, atRoot, ok, tt.want, tt.atRoot, tt.isOK)
		}
	}
	if !slices.Equal(v.rootPrefixes, []string{"/kiosk", "/q"}) {
		t.Errorf("root prefixes %v", v.rootPrefixes)
	}
}

func TestCoverage(t *testing.T) {
	srv := httptest.NewServer(answer{status: 200, ctype: "application/json", body: reviewJSON}.handler(t))
	defer srv.Close()
	v := New(t, loadDoc(t))
	view := v.For(t)
	client := &http.Client{Transport: view.Transport(nil)}
	for _, p := range []string{"/api/v1/review/" + reviewID, "/api/review/" + reviewID} {
		resp, err := client.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}

	got := v.Covered()
	if len(got) != 1 || !slices.Equal(got["GET /review/{id}"], []int{200}) {
		t.Errorf("Covered() = %v, want only GET /review/{id}: [200]", got)
	}
	ops := v.Operations()
	if !slices.Contains(ops, "GET /review/{id}") || !slices.Contains(ops, "POST /webhooks") {
		t.Errorf("Operations() = %v", ops)
	}
	missing := v.Uncovered()
	if len(missing) != len(ops)-1 || slices.Contains(missing, "GET /review/{id}") {
		t.Errorf("Uncovered() = %v", missing)
	}
	rec := &recorder{TB: t}
	v.CheckCoverage(rec)
	if f := rec.failures(); !strings.Contains(f, "POST /webhooks") || strings.Contains(f, "GET /review/{id}\n") {
		t.Errorf("CheckCoverage reported %q", f)
	}
}

// TestLoadReportsThroughRoundTrip checks the mode without a test: a
// mismatch is the error of the request.
func TestLoadReportsThroughRoundTrip(t *testing.T) {
	srv := httptest.NewServer(answer{status: 418, ctype: "application/json", body: `{}`}.handler(t))
	defer srv.Close()
	client := &http.Client{Transport: shared(t).Transport(nil)}
	resp, err := client.Get(srv.URL + "/api/v1/review/" + reviewID)
	if err == nil {
		resp.Body.Close()
		t.Fatal("a response of an undocumented status passed")
	}
	if !strings.Contains(err.Error(), "418") {
		t.Errorf("error %q does not name the status", err)
	}
}

func TestLoadRefusesBadDocuments(t *testing.T) {
	path := func(p, servers string) string {
		return `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"` + p + `":{"servers":` + servers +
			`,"get":{"responses":{"204":{"description":"ok"}}}}}}`
	}
	for _, doc := range []string{
		`not a document`,
		`{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"$ref":"#/components/responses/Missing"}}}}}}`,
		path("/a", `[{"url":"/other"}]`),
		path("/a", `[{"url":"/"},{"url":"https://example.com/"}]`),
		path("/{x}/a", `[{"url":"/"}]`),
		path("/api/a", `[{"url":"/"}]`),
	} {
		if _, err := Load([]byte(doc)); err == nil {
			t.Errorf("Load(%.80q) succeeded", doc)
		}
	}
	if _, err := Load([]byte(path("/a/b", `[{"url":"/"}]`))); err != nil {
		t.Errorf("Load refused a path served at the root: %v", err)
	}
}

func TestStripPrefix(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/api/v1/review", "/review", true},
		{"/api/review", "/review", true},
		{"/api/v1", "/", true},
		{"/api", "/", true},
		{"/api/v1x", "/v1x", true},
		{"/apix/review", "", false},
		{"/healthz", "", false},
		{"/q/abc", "", false},
	}
	for _, tt := range tests {
		got, ok := stripPrefix(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("stripPrefix(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
