package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
)

// LocalTransport sends requests for URLs under Prefix to Handler in
// process and others to Next (http.DefaultTransport when nil): the
// relying party reaches the embedded provider without a network round
// trip to its own public URL, which a reverse proxy may not loop back.
type LocalTransport struct {
	Prefix  string
	Handler http.Handler
	Next    http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t LocalTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasPrefix(req.URL.String(), t.Prefix) {
		next := t.Next
		if next == nil {
			next = http.DefaultTransport
		}
		return next.RoundTrip(req)
	}
	rec := httptest.NewRecorder()
	t.Handler.ServeHTTP(rec, req)
	res := rec.Result()
	res.Request = req
	return res, nil
}
