package http

import (
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/feedbackhq/feedback/server/http/page"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// requestIDPattern bounds what an incoming X-Request-Id may be, so that it
// can be echoed and logged safely.
var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{8,64}$`)

// withRequest prepares what every handler reads of a request: its id,
// X-Request-Id from the client when it is sane or a new one, echoed on
// the response; and the client's address, worked out once for
// [request.ClientIP] (the peer's, or the one the trusted proxies report).
// Both go into the context with one copy of the request.
func (s *Server) withRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !requestIDPattern.MatchString(id) {
			id = feedback.NewID()
		}
		w.Header().Set("X-Request-Id", id)
		ctx := request.WithClientIP(request.WithID(r.Context(), id), request.ClientAddr(r, s.cfg.TrustedProxies))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// recoverer turns a panic into a 500 problem and logs it.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.errs.Write(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// accessLog logs one line per request at debug level, and server errors
// at warn level.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		level := slog.LevelDebug
		if ww.Status() >= 500 {
			level = slog.LevelWarn
		}
		if !s.log.Enabled(r.Context(), level) {
			return // spares building the record's attributes
		}
		s.log.Log(r.Context(), level, "http", "method", r.Method, "path", logPath(r.URL.Path),
			"status", ww.Status(), "bytes", ww.BytesWritten(), "duration", time.Since(start),
			"request_id", request.ID(r.Context()))
	})
}

// logPath hides the secret of an invitation link in the log.
func logPath(p string) string {
	if strings.HasPrefix(p, "/auth/invite/") {
		return "/auth/invite/…"
	}
	return p
}

// securityHeaders sets the headers every response carries.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", page.CSP) // handlers may narrow it
		next.ServeHTTP(w, r)
	})
}

// compress gzips text answers (pages, scripts, styles, JSON); the wasm is
// served precompressed and images are compressed already.
var compress = middleware.Compress(5, "text/html", "text/css", "text/plain", "application/javascript",
	"text/javascript", "application/json", "application/problem+json", "application/manifest+json", "image/svg+xml")
