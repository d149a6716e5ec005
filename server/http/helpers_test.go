package http_test

import (
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"

	feedbackapi "github.com/feedbackhq/feedback/server/api"
	"github.com/feedbackhq/feedback/server/http/openapitest"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// testLogger logs warnings and errors into the test's output.
func testLogger(tb testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tb.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// eachStore runs fn as a parallel subtest per store kind.
func eachStore(t *testing.T, fn func(t *testing.T, ts *TestServer)) {
	t.Helper()
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, MustOpenServer(t, kind))
		})
	}
}

// fixture is a workspace with one of everything.
type fixture struct {
	tenant
	Location feedback.Location
	Review   feedback.Review
	Survey   feedback.Survey
	Hygiene  feedback.Poster // a hygiene poster at Location
	RPoster  feedback.Poster // a review poster
	SPoster  feedback.Poster // a survey poster
}

// newFixture creates a workspace through the API with an active review and
// survey and a poster for each form.
func (ts *TestServer) newFixture(t *testing.T, name string) *fixture {
	t.Helper()
	f := &fixture{tenant: ts.NewTenant(t, name)}
	api := func(method, path string, body any, out any) {
		t.Helper()
		r := ts.do(t, req{method: method, path: "/api/v1" + path, token: f.Token, body: body})
		if r.Status >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		if out != nil {
			r.decode(t, out)
		}
	}
	api("POST", "/locations", map[string]any{"name": name + " restroom"}, &f.Location)
	api("POST", "/review", map[string]any{"title": "How was it?"}, &f.Review)
	api("PATCH", "/review/"+f.Review.ID, map[string]any{"status": "active"}, &f.Review)
	api("POST", "/surveys", map[string]any{"title": "Survey", "questions": []map[string]any{
		{"id": "overall", "type": "rating", "required": true, "labels": map[string]string{"en": "Overall?"}},
		{"id": "why", "type": "single_choice", "labels": map[string]string{"en": "Why?"},
			"options": []map[string]any{{"id": "a", "labels": map[string]string{"en": "A"}}, {"id": "b", "labels": map[string]string{"en": "B"}}}},
	}}, &f.Survey)
	api("PATCH", "/surveys/"+f.Survey.ID, map[string]any{"status": "active"}, &f.Survey)
	loc := "/locations/" + f.Location.ID + "/posters"
	api("POST", loc, map[string]any{"form": "hygiene"}, &f.Hygiene)
	api("POST", loc, map[string]any{"form": "review", "review_id": f.Review.ID}, &f.RPoster)
	api("POST", loc, map[string]any{"form": "survey", "survey_id": f.Survey.ID}, &f.SPoster)
	return f
}

// api validates every request and response of the suite against the
// OpenAPI document and records which operations were exercised.
var api = mustLoadValidator()

func mustLoadValidator() *openapitest.Validator {
	v, err := openapitest.Load(feedbackapi.OpenAPI)
	if err != nil {
		panic(err)
	}
	return v
}

// validatingClient returns the HTTP client of the tests: it validates all
// API traffic against the OpenAPI document and never follows redirects,
// so tests see 303s.
func validatingClient(tb testing.TB) *http.Client {
	v := api.For(tb)
	v.AllowUnknown("*", "/nothing") // deliberate probes of unknown routes and methods
	v.AllowUnknown("PUT", "/locations")
	return &http.Client{Transport: v.Transport(nil),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// TestMain runs the suite and then, when every test ran, checks that each
// documented operation was exercised, so the document cannot drift.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && runsEverything() {
		if missing := api.Uncovered(); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "OpenAPI operations no test exercised:\n  %s\n", strings.Join(missing, "\n  "))
			code = 1
		}
	}
	pgtest.Release()
	os.Exit(code)
}

// runsEverything reports whether no -run, -skip or -short narrowed the run.
func runsEverything() bool {
	f := flag.Lookup("test.run")
	s := flag.Lookup("test.skip")
	return (f == nil || f.Value.String() == "") && (s == nil || s.Value.String() == "") && !testing.Short()
}

// submit posts a JSON visitor submission to a poster code.
func submit(t *testing.T, ts *TestServer, code string, body any) *result {
	t.Helper()
	return ts.do(t, req{method: "POST", path: "/q/" + code, body: body, contentType: "application/json"})
}

// createWebhook subscribes an https URL of f's workspace and returns its id.
func createWebhook(t *testing.T, ts *TestServer, f *fixture) string {
	t.Helper()
	var w feedback.WebhookSubscription
	ts.do(t, req{method: "POST", path: "/api/v1/webhooks", token: f.Token,
		body: map[string]any{"url": "https://hooks.example.com/in", "events": []string{"*"}}}).expect(t, 201, "").decode(t, &w)
	return w.ID
}

// pairKiosk pairs a kiosk to f's hygiene form and returns its id.
func pairKiosk(t *testing.T, ts *TestServer, f *fixture) string {
	t.Helper()
	_, k := pairKioskCred(t, ts, f, map[string]any{"location_id": f.Location.ID, "form": "hygiene", "name": "Wall tablet"})
	return k.ID
}

// pairKioskCred pairs a kiosk for the pairing input and returns its credential.
func pairKioskCred(t *testing.T, ts *TestServer, f *fixture, in map[string]any) (string, feedback.Kiosk) {
	t.Helper()
	var pc feedback.PairingCode
	ts.do(t, req{method: "POST", path: "/api/v1/kiosks/pairing-codes", token: f.Token, body: in}).expect(t, 201, "").decode(t, &pc)
	var p feedback.Pairing
	ts.do(t, req{method: "POST", path: "/kiosk/pair", body: map[string]any{"code": pc.Code}}).expect(t, 201, "").decode(t, &p)
	return p.Credential, p.Kiosk
}

// countHygiene returns the number of hygiene submissions of f's workspace.
func countHygiene(t *testing.T, ts *TestServer, f *fixture) int {
	t.Helper()
	var page feedback.Page[feedback.HygieneSubmission]
	ts.do(t, req{method: "GET", path: "/api/v1/hygiene?per_page=1", token: f.Token}).expect(t, 200, "").decode(t, &page)
	return page.Meta.Total
}
