package http_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	feedbackhttp "github.com/feedbackhq/feedback/server/http"
)

// fakeWasm writes a stand-in build (app.wasm with .br and .gz copies)
// whose bytes tell the encodings apart.
func fakeWasm(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"app.wasm": "raw-wasm-bytes", "app.wasm.br": "br", "app.wasm.gz": "gz"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestStaticAndAppResources(t *testing.T) {
	dir := fakeWasm(t)
	ts := MustOpenServer(t, "sqlite", func(c *feedbackhttp.Config) { c.WebDir = dir })
	get := func(path string, header ...string) *result {
		r := req{method: "GET", path: path, header: map[string][]string{}}
		for i := 0; i+1 < len(header); i += 2 {
			r.header[header[i]] = []string{header[i+1]}
		}
		return ts.do(t, r)
	}
	t.Run("wasm encodings", func(t *testing.T) {
		for accept, want := range map[string]string{"br, gzip": "br", "gzip": "gz", "": "raw-wasm-bytes", "identity": "raw-wasm-bytes"} {
			r := get("/web/app.wasm", "Accept-Encoding", accept)
			enc := map[string]string{"br": "br", "gz": "gzip"}[want]
			if r.Status != 200 || string(r.Body) != want || r.Header.Get("Content-Encoding") != enc ||
				r.Header.Get("Content-Type") != "application/wasm" || r.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("Accept-Encoding %q: %d %q encoding %q type %q", accept, r.Status, r.Body,
					r.Header.Get("Content-Encoding"), r.Header.Get("Content-Type"))
			}
			if r.Header.Get("X-Uncompressed-Length") != "14" {
				t.Errorf("X-Uncompressed-Length = %q; want 14", r.Header.Get("X-Uncompressed-Length"))
			}
		}
	})
	t.Run("web assets", func(t *testing.T) {
		if r := get("/web/style.css"); r.Status != 200 || !strings.Contains(string(r.Body), ".choice") {
			t.Errorf("style.css: %d", r.Status)
		}
		for _, p := range []string{"/web/", "/web/nothing.css", "/web/../go.mod", "/sitemap.xml", "/ads.txt"} {
			if r := get(p); r.Status != 404 {
				t.Errorf("GET %s = %d; want 404 (no listings, nothing else)", p, r.Status)
			}
		}
		if r := get("/robots.txt", "Host", "evil.example"); r.Status != 200 || !strings.Contains(string(r.Body), "Disallow: /") {
			t.Errorf("robots.txt: %d %s", r.Status, r.Body)
		}
	})
	t.Run("go-app resources", func(t *testing.T) {
		worker := get("/app-worker.js")
		if worker.Status != 200 || !strings.Contains(string(worker.Body), `"app-`) || strings.Contains(string(worker.Body), "githubusercontent") {
			t.Errorf("app-worker.js: %d", worker.Status)
		}
		var manifest struct {
			Icons []struct{ Src string } `json:"icons"`
		}
		get("/manifest.webmanifest").decode(t, &manifest)
		for _, icon := range manifest.Icons {
			if !strings.HasPrefix(icon.Src, "/web/") {
				t.Errorf("manifest icon %q is not a local file", icon.Src)
			}
		}
		js := get("/app.js")
		if !strings.Contains(string(js.Body), `"14"`) { // WasmContentLength: the uncompressed size
			t.Error("app.js does not carry the uncompressed wasm size for the progress label")
		}
		for _, p := range []string{"/", "/kiosk", "/wasm_exec.js", "/app.css"} {
			if r := get(p); r.Status != 200 {
				t.Errorf("GET %s = %d", p, r.Status)
			}
		}
	})
	t.Run("version is the build", func(t *testing.T) {
		other := fakeWasm(t)
		if err := os.WriteFile(filepath.Join(other, "app.wasm"), []byte("another build"), 0o644); err != nil {
			t.Fatal(err)
		}
		ts2 := MustOpenServer(t, "sqlite", func(c *feedbackhttp.Config) { c.WebDir = other })
		ts3 := MustOpenServer(t, "sqlite", func(c *feedbackhttp.Config) { c.WebDir = dir })
		v1 := get("/app-worker.js").Body
		v2 := ts2.do(t, req{method: "GET", path: "/app-worker.js"}).Body
		v3 := ts3.do(t, req{method: "GET", path: "/app-worker.js"}).Body
		if string(v1) == string(v2) || string(v1) != string(v3) {
			t.Error("the service worker's version does not follow the wasm build (and only it)")
		}
	})
	_ = json.Valid
}
