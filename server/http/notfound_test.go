package http_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestNotFoundPages checks that every unknown path answers 404 with a
// page in the site's style (the dashboard's frame below a workspace and
// the settings), and the API with a problem.
func TestNotFoundPages(t *testing.T) {
	ts := MustOpenServer(t, "sqlite")
	for _, tt := range []struct {
		path string
		want []string // in the page
	}{
		{"/settings", []string{`id="dashboard"`, "Page not found"}},
		{"/settings/", []string{`id="dashboard"`, "Page not found"}},
		{"/settings/tokens", []string{`id="dashboard"`, "Page not found"}},
		{"/w/demo/nowhere", []string{`id="dashboard"`, "Page not found"}},
		{"/nothing", []string{"<h1>Page not found</h1>", `href="/web/style.css"`}},
		{"/settings/Tokens", []string{"<h1>Page not found</h1>", `href="/web/style.css"`}},
		{"/w/demo/x%22y", []string{"<h1>Page not found</h1>"}},
	} {
		res, err := http.Get(ts.URL + tt.path) // not through ts.do: these are pages, not the API
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, res)
		if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %s; want a 404 page", tt.path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: the page lacks %q:\n%s", tt.path, w, body)
			}
		}
		if strings.Contains(body, "404 page not found") {
			t.Errorf("GET %s: Go's plain text 404", tt.path)
		}
	}
	r := ts.do(t, req{method: "GET", path: "/api/v1/nothing"})
	if r.Status != http.StatusUnauthorized && r.Status != http.StatusNotFound || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/problem+json") {
		t.Errorf("GET /api/v1/nothing: %d %s; want a problem", r.Status, r.Header.Get("Content-Type"))
	}
}

// readAll returns the body of res, closed.
func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
