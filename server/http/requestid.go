package http

import (
	"context"
	"net/http"
	"regexp"

	"github.com/feedbackhq/feedback/shared/feedback"
)

type contextKey struct{ name string }

var requestIDKey = &contextKey{"request-id"}

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
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey, id)))
	})
}

// requestID returns the id of the request in ctx.
func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}
