package http

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/app/pwa"
	"github.com/feedbackhq/feedback/web"
)

// wasmBuild describes a wasm build the server serves (app.wasm or
// dashboard.wasm).
type wasmBuild struct {
	dir     string // where the build and its .br and .gz are
	name    string // its file name
	version string // the build id: a hash of the file
	size    int64  // the uncompressed size, for go-app's progress label
}

// loadWasm finds the build name in dir and hashes it. Without one the app
// still serves every page (they work without the wasm) under the version
// "dev".
func loadWasm(dir, name string) wasmBuild {
	b := wasmBuild{dir: dir, name: name, version: "dev"}
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return b
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return b
	}
	b.size, b.version = n, hex.EncodeToString(h.Sum(nil))[:16]
	return b
}

func (s *Server) registerStaticRoutes(r chi.Router) {
	r.Get(pwa.WasmPath, s.wasm.serve)
	r.Get(pwa.DashboardWasmPath, s.dashWasm.serve)
	assets := http.FileServerFS(web.Assets)
	r.Get("/web/*", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/web/")
		if _, err := fs.Stat(web.Assets, name); err != nil || name == "" || strings.HasSuffix(name, "/") {
			http.NotFound(w, r) // no directory listings
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		http.StripPrefix("/web", assets).ServeHTTP(w, r)
	})
	r.Get("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "User-agent: *\nDisallow: /\n") // visitor pages are private links
	})
	for _, p := range []string{"/sitemap.xml", "/ads.txt"} {
		r.Get(p, http.NotFound)
	}
}

// serve serves the build precompressed (brotli or gzip, made at build
// time), with a Vary header and a build-specific ETag.
func (b wasmBuild) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Vary", "Accept-Encoding")
	h.Set("Cache-Control", "no-cache")
	name := b.name
	accept := r.Header.Get("Accept-Encoding")
	for _, c := range []struct{ enc, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if strings.Contains(accept, c.enc) && exists(filepath.Join(b.dir, name+c.ext)) {
			h.Set("Content-Encoding", c.enc)
			name += c.ext
			break
		}
	}
	h.Set("ETag", `"`+b.version+"-"+name+`"`)
	h.Set("X-Uncompressed-Length", strconv.FormatInt(b.size, 10))
	http.ServeFile(w, r, filepath.Join(b.dir, name))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
