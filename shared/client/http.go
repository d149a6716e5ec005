//go:build !(js && wasm)

package client

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
)

// DefaultTransport sends the requests of a [Client] whose Transport is
// nil: here net/http's default client.
var DefaultTransport Transport = HTTP{}

// HTTP is a [Transport] over a net/http client.
type HTTP struct {
	// Client performs the requests; nil means http.DefaultClient.
	Client *http.Client
}

// RoundTrip implements [Transport].
func (t HTTP) RoundTrip(ctx context.Context, r *Request) (*Response, error) {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return nil, err
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	hc := t.Client
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	h := make(Header, len(res.Header))
	for k, v := range res.Header {
		h[strings.ToLower(k)] = v[0]
	}
	return &Response{Status: res.StatusCode, Header: h, Body: b}, nil
}
