// Package client is the typed Go client of the service: its REST API,
// visitor ingest and kiosk endpoints. The app's pages reach the service
// through it in the browser, the server's end-to-end tests drive the
// real service with it, and integrators can use it.
//
// Requests go through a [Transport]: window.fetch in the browser, where
// the package never links net/http, and net/http everywhere else. Every
// method returns a *feedback.Problem as its error when the service
// answers with an error (see [DecodeProblem]), so callers can switch on
// Problem.Code and Problem.Status.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrDecode is the error of a 2xx answer whose body is not what the
// method expects.
var ErrDecode = errors.New("client: the answer cannot be decoded")

// Client talks to one service as one API token, kiosk credential, or
// (in the browser, with BaseURL "") the signed-in user's session.
type Client struct {
	// BaseURL is the service's root, for example
	// https://feedback.example.com; "" in the browser, for the page's
	// own origin.
	BaseURL string
	// Token is sent as a Bearer token: an API token or a kiosk credential.
	Token string
	// Transport sends the requests; nil means DefaultTransport.
	Transport Transport
	// Prefix is the API prefix, /api/v1 unless set.
	Prefix string
	// Workspace, when set, names the workspace of a dashboard session's
	// requests (its id or slug) in the Feedback-Workspace header: a user
	// who belongs to several workspaces must name one.
	Workspace string
}

// New returns a client of the service at baseURL using token.
func New(baseURL, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token}
}

// Do sends a request with in as its JSON body (nil for none) and decodes a
// 2xx JSON answer into out (nil to discard). An error answer is returned
// as a *feedback.Problem error together with the response; a network
// error with a nil response; a 2xx answer out cannot hold wraps ErrDecode.
func (c *Client) Do(ctx context.Context, method, path string, in, out any) (*Response, error) {
	req := &Request{Method: method, URL: c.BaseURL + path, Header: map[string]string{"Accept": "application/json"}}
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		req.Body = b
		req.Header["Content-Type"] = "application/json"
	}
	if c.Token != "" {
		req.Header["Authorization"] = "Bearer " + c.Token
	}
	if c.Workspace != "" {
		req.Header["Feedback-Workspace"] = c.Workspace
	}
	t := c.Transport
	if t == nil {
		t = DefaultTransport
	}
	r, err := t.RoundTrip(ctx, req)
	if err != nil {
		return nil, err
	}
	r.RateLimit = rateLimitOf(r.Header)
	if r.Status >= 300 {
		p, _ := DecodeProblem(r.Status, r.Body)
		return r, p
	}
	if out != nil && len(r.Body) > 0 {
		if err := json.Unmarshal(r.Body, out); err != nil {
			return r, fmt.Errorf("%w: %s %s: %v", ErrDecode, method, path, err)
		}
	}
	return r, nil
}

// api returns the path of an API endpoint.
func (c *Client) api(path string) string {
	if c.Prefix != "" {
		return c.Prefix + path
	}
	return "/api/v1" + path
}

// withQuery appends encoded query values to path.
func withQuery(path string, v url.Values) string {
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}
