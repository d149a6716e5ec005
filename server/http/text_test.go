package http_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// badText are JSON string contents that are not valid Unicode, as raw
// JSON text: encoding/json would store each as U+FFFD.
var badText = map[string]string{
	"bytes not UTF-8":        "\xff\xfe",
	"truncated sequence":     "caf\xc3",
	"lone high surrogate":    `\ud800`,
	"lone low surrogate":     `x\uDC00y`,
	"high then not low":      `\ud83d\u0041`,
	"surrogate as last char": `ok\udbff`,
}

// wantRefusedText checks a 400 malformed_body naming field ("*": any
// one field).
func wantRefusedText(t *testing.T, r *result, field string) {
	t.Helper()
	r.expect(t, http.StatusBadRequest, feedback.EMalformedBody)
	p := r.problem(t)
	if len(p.InvalidParams) != 1 || (field != "*" && p.InvalidParams[0].Name != field) || !strings.Contains(p.InvalidParams[0].Reason, "UTF-8") {
		t.Errorf("invalid_params %+v; want %s named as not valid UTF-8", p.InvalidParams, field)
	}
}

func TestInvalidUTF8IsRefused(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "Text")
		countLocations := func() int {
			var page feedback.Page[feedback.Location]
			ts.do(t, req{method: "GET", path: "/api/v1/locations?per_page=1", token: f.Token}).expect(t, 200, "").decode(t, &page)
			return page.Meta.Total
		}
		before, hygiene := countLocations(), countHygiene(t, ts, f)
		for name, bad := range badText {
			t.Run(name, func(t *testing.T) {
				post := func(path, body string) *result {
					return ts.do(t, req{method: "POST", path: path, token: f.Token, body: body, contentType: "application/json"})
				}
				wantRefusedText(t, post("/api/v1/locations", `{"name":"`+bad+`"}`), "name")
				wantRefusedText(t, post("/api/v1/locations", `{"name":"Hall","description":"`+bad+`"}`), "description")
				wantRefusedText(t, post("/api/v1/surveys", `{"title":"S","questions":[{"type":"text","labels":{"en":"Why?"}},`+
					`{"type":"text","labels":{"en":"ok","de":"`+bad+`"}}]}`), "questions[1].labels.de")
				wantRefusedText(t, post("/api/v1/locations", `{"name":"x","`+bad+`":"x"}`), "*") // a key
				wantRefusedText(t, submit(t, ts, f.Hygiene.Code, `{"id":"`+feedback.NewID()+`","rating":3,"comment":"`+bad+`"}`), "comment")
			})
		}
		if n := countLocations(); n != before {
			t.Errorf("%d locations after the refusals, %d before: something was stored", n, before)
		}
		if n := countHygiene(t, ts, f); n != hygiene {
			t.Errorf("%d hygiene submissions after the refusals, %d before", n, hygiene)
		}
		// A pair of escaped surrogates is one character, and is kept.
		var loc feedback.Location
		ts.do(t, req{method: "POST", path: "/api/v1/locations", token: f.Token, body: `{"name":"Caf\u00e9 \ud83d\ude00 \\u00ff"}`,
			contentType: "application/json"}).expect(t, 201, "").decode(t, &loc)
		if loc.Name != `Café 😀 \u00ff` {
			t.Errorf("stored name %q", loc.Name)
		}
	})
}

func TestInvalidUTF8InKioskSync(t *testing.T) {
	eachStore(t, func(t *testing.T, ts *TestServer) {
		f := ts.newFixture(t, "SyncText")
		cred, _ := pairKioskCred(t, ts, f, map[string]any{"location_id": f.Location.ID, "form": "hygiene"})
		good, bad := feedback.NewID(), feedback.NewID()
		at := ts.Clock.Now().Format(time.RFC3339Nano)
		body := fmt.Sprintf(`{"submissions":[{"id":%q,"rating":4,"captured_at":%q},{"id":%q,"rating":2,"captured_at":%q,"comment":"dirty \ud800"}]}`,
			good, at, bad, at)
		var out feedback.SyncResponse
		ts.do(t, req{method: "POST", path: "/kiosk/sync", token: cred, body: body, contentType: "application/json"}).
			expect(t, 200, "").decode(t, &out)
		if len(out.Results) != 2 || out.Results[0].Status != 201 || out.Results[1].Status != 400 || out.Results[1].ID != bad ||
			out.Results[1].Problem == nil || len(out.Results[1].Problem.InvalidParams) != 1 ||
			out.Results[1].Problem.InvalidParams[0].Name != "comment" {
			t.Fatalf("results %+v; want the first stored and the second refused naming comment", out.Results)
		}
		if n := countHygiene(t, ts, f); n != 1 {
			t.Errorf("%d hygiene submissions; want only the valid one", n)
		}
	})
}

func TestMethodNotAllowedListsAllow(t *testing.T) {
	ts := MustOpenServer(t, "sqlite")
	a := ts.NewTenant(t, "Allow")
	for _, tt := range []struct{ method, path, token, allow string }{
		{"PUT", "/api/v1/locations", a.Token, "GET, POST"},
		{"POST", "/api/v1/hygiene", a.Token, "GET"},
		{"DELETE", "/api/review", a.Token, "GET, POST"},
		{"PUT", "/api/v1/locations/" + feedback.NewID(), a.Token, "GET, PATCH, DELETE"},
		{"GET", "/kiosk/sync", "", "POST"},
		{"DELETE", "/auth/logout", "", "POST"},
	} {
		// Not through ts.do: these probe methods the document does not have.
		rq, _ := http.NewRequest(tt.method, ts.URL+tt.path, nil)
		if tt.token != "" {
			rq.Header.Set("Authorization", "Bearer "+tt.token)
		}
		res, err := http.DefaultClient.Do(rq)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != tt.allow {
			t.Errorf("%s %s: %d, Allow %q; want 405 with Allow %q", tt.method, tt.path, res.StatusCode, res.Header.Get("Allow"), tt.allow)
		}
	}
}
