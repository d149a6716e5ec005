package webhook

import (
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"time"
)

// Limits of the delivery client.
const (
	// ClientTimeout bounds a whole attempt: connecting, sending, and
	// reading the answer's headers and body.
	ClientTimeout = 15 * time.Second
	// MaxResponseBody is how much of an answer's body [ReadLimited] keeps.
	MaxResponseBody = 64 << 10
	// MaxResponseHeader bounds an answer's headers; larger ones fail the
	// attempt.
	MaxResponseHeader = 64 << 10
)

// NewClient returns the HTTP client that delivers webhooks to
// destinations p accepts. Its dialer checks each address it is about to
// connect to against p (code.dny.dev/ssrf, any port, with p.Allow let
// through), so a name that resolves differently at delivery time than
// when [Policy.CheckURL] accepted it (DNS rebinding) still cannot reach a
// private address; the refusal wraps [ssrf.ErrProhibitedIP] and names
// the address. It never uses a proxy from the environment, does not
// follow redirects (a 3xx is returned as the answer), may speak HTTP/2,
// and gives up after [ClientTimeout]; a caller may lower Timeout.
func NewClient(p Policy) *http.Client {
	dialer := &net.Dialer{
		Timeout:   5 * time.Second,
		KeepAlive: 30 * time.Second,
		Control:   p.guardian().Safe,
	}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  10 * time.Second,
		ExpectContinueTimeout:  time.Second,
		IdleConnTimeout:        90 * time.Second,
		MaxIdleConns:           DefaultConcurrency, // keep a connection per attempt in flight
		MaxIdleConnsPerHost:    DefaultPerHost,
		MaxResponseHeaderBytes: MaxResponseHeader,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   ClientTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// ReadLimited reads res's body for the delivery log and closes it. It
// keeps at most [MaxResponseBody] bytes: a longer body is cut there, the
// rest is not read, and the connection is closed rather than reused. The
// error is a read failure such as a timeout, returned with what was read
// before it; a cut body is no error.
func ReadLimited(res *http.Response) (body []byte, err error) {
	defer res.Body.Close()
	body, err = io.ReadAll(io.LimitReader(res.Body, MaxResponseBody+1))
	if len(body) > MaxResponseBody {
		body = body[:MaxResponseBody]
	}
	return body, err
}
