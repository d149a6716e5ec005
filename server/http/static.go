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

	"github.com/feedbackhq/feedback/web"
)

// wasmBuild describes the app.wasm the server serves.
type wasmBuild struct {
	dir     string // where app.wasm, app.wasm.br and app.wasm.gz are
	version string // the build id: a hash of app.wasm
	size    int64  // the uncompressed size, for go-app's progress label
}

// loadWasm finds app.wasm in dir and hashes it. Without one the app still
// serves every page (they work without the wasm) under the version "dev".
func loadWasm(dir string) wasmBuild {
	b := wasmBuild{dir: dir, version: "dev"}
	f, err := os.Open(filepath.Join(dir, "app.wasm"))
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
	r.Get("/web/app.wasm", s.serveWasm)
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

// serveWasm serves app.wasm precompressed (brotli or gzip, made at build
// time), with a Vary header and a build-specific ETag.
func (s *Server) serveWasm(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Vary", "Accept-Encoding")
	h.Set("Cache-Control", "no-cache")
	name := "app.wasm"
	accept := r.Header.Get("Accept-Encoding")
	for _, c := range []struct{ enc, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if strings.Contains(accept, c.enc) && exists(filepath.Join(s.wasm.dir, name+c.ext)) {
			h.Set("Content-Encoding", c.enc)
			name += c.ext
			break
		}
	}
	h.Set("ETag", `"`+s.wasm.version+"-"+name+`"`)
	h.Set("X-Uncompressed-Length", strconv.FormatInt(s.wasm.size, 10))
	http.ServeFile(w, r, filepath.Join(s.wasm.dir, name))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
