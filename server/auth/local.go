package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
)

// LocalTransport sends requests for URLs under Prefix to Handler in
// process and others to Next (http.DefaultTransport when nil): the
// relying party reaches the embedded provider without a network round
// trip to its own public URL, which a reverse proxy may not loop back.
// Handler gets the request without the values of its context, which
// come from the request being served (a renewal of a session): a router's
// state there would route the provider's request (its own router would
// take it for a subrouter's).
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
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer context.AfterFunc(req.Context(), cancel)()
	rec := httptest.NewRecorder()
	t.Handler.ServeHTTP(rec, req.WithContext(ctx))
	res := rec.Result()
	res.Request = req
	return res, nil
}
