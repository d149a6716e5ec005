// Package client is a typed Go client of the service's REST API, visitor
// ingest and kiosk endpoints. Integrators can use it, and the server's
// end-to-end tests drive the real service through it.
//
// Every method returns a *feedback.Problem as its error when the service
// answers with a problem, so callers can switch on Problem.Code.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Client talks to one service as one API token.
type Client struct {
	// BaseURL is the service's root, for example https://feedback.example.com.
	BaseURL string
	// Token is sent as a Bearer token: an API token or a kiosk credential.
	Token string
	// HTTP performs the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// Prefix is the API prefix, /api/v1 unless set.
	Prefix string
}

// New returns a client of the service at baseURL using token.
func New(baseURL, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token}
}

// RateLimit is what the X-RateLimit-* headers of a response said.
type RateLimit struct {
	Limit, Remaining int
	Reset            time.Time
}

// Response is the status and headers of a completed call.
type Response struct {
	Status    int
	Header    http.Header
	RateLimit RateLimit
}

// Do sends a request with in as its JSON body (nil for none) and decodes a
// 2xx JSON answer into out (nil to discard). A problem answer is returned
// as a *feedback.Problem error together with the response.
func (c *Client) Do(ctx context.Context, method, path string, in, out any) (*Response, error) {
	req, err := c.newRequest(ctx, method, path, in)
	if err != nil {
		return nil, err
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	r := &Response{Status: res.StatusCode, Header: res.Header, RateLimit: rateLimitOf(res.Header)}
	if res.StatusCode >= 300 {
		return r, problemOf(res, body)
	}
	if out != nil && len(body) > 0 {
		if err := json.Unmarshal(body, out); err != nil {
			return r, fmt.Errorf("client: decode %s %s: %w", method, path, err)
		}
	}
	return r, nil
}

func (c *Client) newRequest(ctx context.Context, method, path string, in any) (*http.Request, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, body)
	if err != nil {
		return nil, err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	return req, nil
}

// api returns the path of an API endpoint.
func (c *Client) api(path string) string {
	if c.Prefix != "" {
		return c.Prefix + path
	}
	return "/api/v1" + path
}

func problemOf(res *http.Response, body []byte) error {
	p := &feedback.Problem{}
	if json.Unmarshal(body, p) != nil || p.Code == "" {
		p = &feedback.Problem{Status: res.StatusCode, Code: feedback.EInternal,
			Detail: strings.TrimSpace(string(body))}
	}
	return p
}

func rateLimitOf(h http.Header) RateLimit {
	limit, _ := strconv.Atoi(h.Get("X-RateLimit-Limit"))
	remaining, _ := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	reset, _ := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	return RateLimit{Limit: limit, Remaining: remaining, Reset: time.Unix(reset, 0).UTC()}
}

// withQuery appends encoded query values to path.
func withQuery(path string, v url.Values) string {
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}
