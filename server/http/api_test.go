package http_test

import (
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// scenario is one request and the answer it must get.
type scenario struct {
	name   string
	method string
	path   string // relative to /api/v1; {loc}, {review}, {survey}, {poster} are replaced
	body   any
	raw    string // a raw body, sent as is with contentType
	ctype  string
	status int
	code   string   // the problem code, for errors
	params []string // names that invalid_params must hold
}

func (f *fixture) expand(path string) string {
	return strings.NewReplacer("{loc}", f.Location.ID, "{review}", f.Review.ID, "{survey}", f.Survey.ID,
		"{poster}", f.Hygiene.ID).Replace(path)
}

func runScenarios(t *testing.T, ts *TestServer, f *fixture, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			var body any = sc.body
			if sc.raw != "" {
				body = sc.raw
			}
			r := ts.do(t, req{method: sc.method, path: "/api/v1" + f.expand(sc.path), token: f.Token, body: body, contentType: sc.ctype})
			r.expect(t, sc.status, sc.code)
			if sc.status >= 400 {
				names := map[string]bool{}
				for _, p := range r.problem(t).InvalidParams {
					names[p.Name] = true
				}
				for _, want := range sc.params {
					if !names[want] {
						t.Errorf("invalid_params lacks %q: %s", want, r.Body)
					}
				}
			}
		})
	}
}

func TestResources(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Acme")
		runScenarios(t, ts, f, []scenario{
			{name: "location/create", method: "POST", path: "/locations", body: map[string]any{"name": "Lobby", "description": "Ground floor"}, status: 201},
			{name: "location/create without name", method: "POST", path: "/locations", body: map[string]any{"description": "x"}, status: 422, code: feedback.EValidation, params: []string{"name"}},
			{name: "location/create blank name", method: "POST", path: "/locations", body: map[string]any{"name": "   "}, status: 422, code: feedback.EValidation, params: []string{"name"}},
			{name: "location/create unknown field", method: "POST", path: "/locations", body: map[string]any{"name": "x", "colour": "red"}, status: 422, code: feedback.EValidation, params: []string{"colour"}},
			{name: "location/create wrong type", method: "POST", path: "/locations", body: map[string]any{"name": 5}, status: 422, code: feedback.EValidation, params: []string{"name"}},
			{name: "location/create not json", method: "POST", path: "/locations", raw: "{", ctype: "application/json", status: 400, code: feedback.EMalformedBody},
			{name: "location/create two values", method: "POST", path: "/locations", raw: `{"name":"a"}{"name":"b"}`, ctype: "application/json", status: 400, code: feedback.EMalformedBody},
			{name: "location/create form data", method: "POST", path: "/locations", raw: "name=x", ctype: "application/x-www-form-urlencoded", status: 415, code: feedback.EUnsupportedMediaType},
			{name: "location/create too large", method: "POST", path: "/locations", raw: `{"name":"` + strings.Repeat("x", 1<<20) + `"}`, ctype: "application/json", status: 413, code: feedback.EPayloadTooLarge},
			{name: "location/get", method: "GET", path: "/locations/{loc}", status: 200},
			{name: "location/get malformed id", method: "GET", path: "/locations/42", status: 404, code: feedback.ENotFound},
			{name: "location/get unknown id", method: "GET", path: "/locations/" + feedback.NewID(), status: 404, code: feedback.ENotFound},
			{name: "location/patch", method: "PATCH", path: "/locations/{loc}", body: map[string]any{"description": "Renovated"}, status: 200},
			{name: "location/patch empty", method: "PATCH", path: "/locations/{loc}", body: map[string]any{}, status: 422, code: feedback.EValidation},
			{name: "location/list", method: "GET", path: "/locations", status: 200},
			{name: "location/list bad per_page", method: "GET", path: "/locations?per_page=500", status: 400, code: feedback.EInvalidParameter, params: []string{"per_page"}},
			{name: "location/list from not allowed", method: "GET", path: "/locations?from=2026-01-01", status: 400, code: feedback.EInvalidParameter, params: []string{"from"}},
			{name: "review/create", method: "POST", path: "/review", body: map[string]any{"title": "New"}, status: 201},
			{name: "review/create with status", method: "POST", path: "/review", body: map[string]any{"title": "New", "status": "active"}, status: 422, code: feedback.EValidation, params: []string{"status"}},
			{name: "review/get", method: "GET", path: "/review/{review}", status: 200},
			{name: "review/get with query", method: "GET", path: "/review/{review}?x=1", status: 400, code: feedback.EInvalidParameter, params: []string{"x"}},
			{name: "review/patch bad status", method: "PATCH", path: "/review/{review}", body: map[string]any{"status": "deleted"}, status: 422, code: feedback.EValidation, params: []string{"status"}},
			{name: "review/patch back to draft", method: "PATCH", path: "/review/{review}", body: map[string]any{"status": "draft"}, status: 409, code: feedback.EInvalidTransition},
			{name: "review/list", method: "GET", path: "/review?page=1&per_page=10", status: 200},
			{name: "review/responses", method: "GET", path: "/review/{review}/responses?from=2026-01-01&to=2027-01-01", status: 200},
			{name: "review/responses location filter", method: "GET", path: "/review/{review}/responses?location_id={loc}", status: 200},
			{name: "review/responses bad location", method: "GET", path: "/review/{review}/responses?location_id=lobby", status: 400, code: feedback.EInvalidParameter, params: []string{"location_id"}},
			{name: "review/responses unknown review", method: "GET", path: "/review/" + feedback.NewID() + "/responses", status: 404, code: feedback.ENotFound},
			{name: "survey/create", method: "POST", path: "/surveys", body: map[string]any{"title": "S", "questions": []map[string]any{{"type": "nps", "labels": map[string]string{"en": "Recommend?"}}}}, status: 201},
			{name: "survey/create no questions", method: "POST", path: "/surveys", body: map[string]any{"title": "S"}, status: 422, code: feedback.EValidation, params: []string{"questions"}},
			{name: "survey/create bad question", method: "POST", path: "/surveys", body: map[string]any{"title": "S", "questions": []map[string]any{{"type": "single_choice", "labels": map[string]string{"en": "?"}}}}, status: 422, code: feedback.EValidation, params: []string{"questions[0].options"}},
			{name: "survey/patch questions of active", method: "PATCH", path: "/surveys/{survey}", body: map[string]any{"questions": []map[string]any{{"type": "text", "labels": map[string]string{"en": "?"}}}}, status: 409, code: feedback.EConflict},
			{name: "survey/get", method: "GET", path: "/surveys/{survey}", status: 200},
			{name: "survey/list", method: "GET", path: "/surveys", status: 200},
			{name: "survey/responses", method: "GET", path: "/surveys/{survey}/responses", status: 200},
			{name: "poster/create review without id", method: "POST", path: "/locations/{loc}/posters", body: map[string]any{"form": "review"}, status: 422, code: feedback.EValidation, params: []string{"review_id"}},
			{name: "poster/create unknown review", method: "POST", path: "/locations/{loc}/posters", body: map[string]any{"form": "review", "review_id": feedback.NewID()}, status: 404, code: feedback.ENotFound},
			{name: "poster/create bad form", method: "POST", path: "/locations/{loc}/posters", body: map[string]any{"form": "poll"}, status: 422, code: feedback.EValidation, params: []string{"form"}},
			{name: "poster/list", method: "GET", path: "/locations/{loc}/posters", status: 200},
			{name: "poster/get", method: "GET", path: "/posters/{poster}", status: 200},
			{name: "poster/qr", method: "GET", path: "/posters/{poster}/qr.png?size=256", status: 200},
			{name: "poster/qr bad size", method: "GET", path: "/posters/{poster}/qr.png?size=9", status: 400, code: feedback.EInvalidParameter, params: []string{"size"}},
			{name: "poster/qr svg", method: "GET", path: "/posters/{poster}/qr.svg?size=1024", status: 200},
			{name: "poster/print", method: "GET", path: "/posters/print.pdf?ids={poster}", status: 200},
			{name: "poster/print twice", method: "GET", path: "/posters/print.pdf?ids={poster},{poster}", status: 400, code: feedback.EInvalidParameter, params: []string{"ids"}},
			{name: "poster/print unknown", method: "GET", path: "/posters/print.pdf?ids=" + feedback.NewID(), status: 404, code: feedback.ENotFound},
			{name: "poster/qr svg bad size", method: "GET", path: "/posters/{poster}/qr.svg?size=4096", status: 400, code: feedback.EInvalidParameter, params: []string{"size"}},
			{name: "poster/pdf", method: "GET", path: "/posters/{poster}/poster.pdf", status: 200},
			{name: "hygiene/list", method: "GET", path: "/hygiene?location_id={loc}&from=2026-11-01", status: 200},
			{name: "hygiene/list bad to", method: "GET", path: "/hygiene?to=soon", status: 400, code: feedback.EInvalidParameter, params: []string{"to"}},
			{name: "hygiene/list from after to", method: "GET", path: "/hygiene?from=2026-11-02&to=2026-11-01", status: 400, code: feedback.EInvalidParameter, params: []string{"from"}},
			{name: "events", method: "GET", path: "/events?after=0&limit=10", status: 200},
			{name: "events bad after", method: "GET", path: "/events?after=-1", status: 400, code: feedback.EInvalidParameter, params: []string{"after"}},
			{name: "kiosks/list", method: "GET", path: "/kiosks", status: 200},
			{name: "unknown route", method: "GET", path: "/nothing", status: 404, code: feedback.ENotFound},
			{name: "method not allowed", method: "PUT", path: "/locations", body: map[string]any{}, status: 405, code: feedback.EMethodNotAllowed},
		})
	})
}

func TestOpenAPIDocument(t *testing.T) {
	ts := MustOpenServer(t, "sqlite")
	for _, path := range []string{"/api/v1/openapi.json", "/api/openapi.json"} {
		r := ts.do(t, req{method: "GET", path: path}).expect(t, 200, "")
		var doc struct {
			OpenAPI string         `json:"openapi"`
			Paths   map[string]any `json:"paths"`
		}
		r.decode(t, &doc)
		if doc.OpenAPI != "3.1.0" || doc.Paths["/hygiene"] == nil || r.Header.Get("X-RateLimit-Limit") == "" {
			t.Errorf("GET %s: openapi %q, %d paths, headers %v", path, doc.OpenAPI, len(doc.Paths), r.Header)
		}
	}
}

func TestUnknownRoutesCarryLimits(t *testing.T) {
	ts := MustOpenServer(t, "sqlite")
	a := ts.NewTenant(t, "Unknown")
	for _, tt := range []struct {
		method, path, token string
		status              int
		code                string
	}{
		{"GET", "/api/v1/nothing", a.Token, 404, feedback.ENotFound},
		{"GET", "/api/v1/nothing", "", 401, feedback.EUnauthenticated},
		{"PUT", "/api/v1/locations", a.Token, 405, feedback.EMethodNotAllowed},
		{"POST", "/api/v1/locations?dry_run=1", a.Token, 400, feedback.EInvalidParameter},
	} {
		r := ts.do(t, req{method: tt.method, path: tt.path, token: tt.token, body: map[string]any{"name": "x"}}).expect(t, tt.status, tt.code)
		if r.Header.Get("X-RateLimit-Remaining") == "" {
			t.Errorf("%s %s: no rate-limit headers", tt.method, tt.path)
		}
	}
}
