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

// withRequestID takes X-Request-Id from the client when it is sane, or
// makes one, and echoes it on the response.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !requestIDPattern.MatchString(id) {
			id = feedback.NewID()
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(request.WithID(r.Context(), id)))
	})
}

// withClientIP works out the client's address once, for
// [request.ClientIP]: the peer's, or the one the trusted proxies report.
func (s *Server) withClientIP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip := request.ClientAddr(r, s.cfg.TrustedProxies)
		next.ServeHTTP(w, r.WithContext(request.WithClientIP(r.Context(), ip)))
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
