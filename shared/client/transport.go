package client

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Request is one HTTP request as a [Transport] sends it.
type Request struct {
	Method string
	URL    string
	Header map[string]string
	Body   []byte // nil for none
}

// Response is the service's answer to one request.
type Response struct {
	Status int
	Header Header
	Body   []byte
	// RateLimit is what the X-RateLimit-* headers said.
	RateLimit RateLimit
}

// Header holds the headers of a response under their lower-case names,
// the first value of each.
type Header map[string]string

// Get returns the value of the header name, or "".
func (h Header) Get(name string) string { return h[strings.ToLower(name)] }

// RateLimit is what the X-RateLimit-* headers of a response said.
type RateLimit struct {
	Limit, Remaining int
	Reset            time.Time
}

// Transport sends one request. A network error, a timeout or an aborted
// request is an error; any HTTP answer, even a 500, is a Response.
//
// [DefaultTransport] is window.fetch in the browser (GOOS=js) and
// net/http everywhere else: the browser's build never links net/http,
// which would add 5 MB to the WebAssembly.
type Transport interface {
	RoundTrip(ctx context.Context, req *Request) (*Response, error)
}

func rateLimitOf(h Header) RateLimit {
	limit, _ := strconv.Atoi(h.Get("X-RateLimit-Limit"))
	remaining, _ := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	reset, _ := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	return RateLimit{Limit: limit, Remaining: remaining, Reset: time.Unix(reset, 0).UTC()}
}
