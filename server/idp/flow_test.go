package idp_test

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// rp is the dashboard: a relying party of golang.org/x/oauth2 and
// github.com/coreos/go-oidc/v3, talking to the provider over HTTP.
type rp struct {
	ctx      context.Context // carries the HTTP client
	provider *oidc.Provider
	oauth    oauth2.Config
	verifier *oidc.IDTokenVerifier
}

// rp discovers the provider.
func (e *env) rp() *rp {
	e.t.Helper()
	ctx := oidc.ClientContext(context.Background(), e.srv.Client())
	p, err := oidc.NewProvider(ctx, e.issuer)
	if err != nil {
		e.t.Fatalf("discovery: %v", err)
	}
	return &rp{ctx: ctx, provider: p, verifier: p.Verifier(&oidc.Config{ClientID: clientID}),
		oauth: oauth2.Config{ClientID: clientID, ClientSecret: clientSecret, Endpoint: p.Endpoint(),
			RedirectURL: e.srv.URL + "/callback", Scopes: []string{oidc.ScopeOpenID, "email", oidc.ScopeOfflineAccess}}}
}

// page is where a browser ended: the response after redirects.
type page struct {
	status int
	url    *url.URL
	header http.Header
	body   string
}

// flow is one sign-in in a browser (a client with a cookie jar that
// follows redirects).
type flow struct {
	e                      *env
	rp                     *rp
	browser                *http.Client
	state, nonce, verifier string
	last                   page
}

// start opens the authorization URL, with opts' parameters; the browser
// lands on the login page.
func (e *env) start(r *rp, opts ...oauth2.AuthCodeOption) *flow {
	e.t.Helper()
	jar, _ := cookiejar.New(nil)
	f := &flow{e: e, rp: r, browser: &http.Client{Jar: jar}, state: oauth2.GenerateVerifier(),
		nonce: oauth2.GenerateVerifier(), verifier: oauth2.GenerateVerifier()}
	opts = append(opts, oidc.Nonce(f.nonce), oauth2.S256ChallengeOption(f.verifier))
	u := r.oauth.AuthCodeURL(f.state, opts...)
	f.last = f.do(http.NewRequest(http.MethodGet, u, nil))
	if f.last.status != http.StatusOK || !strings.HasSuffix(f.last.url.Path, "/idp/login") {
		e.t.Fatalf("authorize ended at %d %s: %s", f.last.status, f.last.url, f.last.body)
	}
	return f
}

func (f *flow) do(req *http.Request, err error) page {
	f.e.t.Helper()
	if err != nil {
		f.e.t.Fatal(err)
	}
	resp, err := f.browser.Do(req)
	if err != nil {
		f.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return page{status: resp.StatusCode, url: resp.Request.URL, header: resp.Header, body: string(b)}
}

var (
	formRE  = regexp.MustCompile(`(?s)<form([^>]*)>(.*?)</form>`)
	inputRE = regexp.MustCompile(`<input([^>]*)>`)
	attrRE  = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
)

// attrs returns the attributes of a tag's text.
func attrs(s string) map[string]string {
	m := map[string]string{}
	for _, a := range attrRE.FindAllStringSubmatch(s, -1) {
		m[a[1]] = html.UnescapeString(a[2])
	}
	return m
}

// submit fills the form of the current page with fields, which must all
// be inputs of it, and posts it where the form says (its action, or the
// page's own URL).
func (f *flow) submit(fields map[string]string) page {
	f.e.t.Helper()
	f.last = submitForm(f.e.t, f.browser, f.last, fields)
	return f.last
}

func submitForm(t *testing.T, c *http.Client, p page, fields map[string]string) page {
	t.Helper()
	action, v := formPost(t, p, fields)
	resp, err := c.PostForm(action, v)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return page{status: resp.StatusCode, url: resp.Request.URL, header: resp.Header, body: string(b)}
}

// formPost returns where the form of page p posts and what, filled with
// fields, which must all be inputs of it.
func formPost(t *testing.T, p page, fields map[string]string) (string, url.Values) {
	t.Helper()
	m := formRE.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("no form on %s: %s", p.url, p.body)
	}
	form := attrs(m[1])
	if strings.ToLower(form["method"]) != "post" {
		t.Fatalf("the form of %s does not post", p.url)
	}
	v, names := url.Values{}, []string{}
	for _, in := range inputRE.FindAllStringSubmatch(m[2], -1) {
		a := attrs(in[1])
		names = append(names, a["name"])
		if a["type"] == "hidden" {
			v.Set(a["name"], a["value"])
		}
	}
	for k, val := range fields {
		if !slices.Contains(names, k) {
			t.Fatalf("the form of %s has no input %q (it has %v)", p.url, k, names)
		}
		v.Set(k, val)
	}
	action, err := p.url.Parse(form["action"])
	if err != nil {
		t.Fatal(err)
	}
	return action.String(), v
}

// password posts the login form.
func (f *flow) password(email, password string) page {
	return f.submit(map[string]string{"email": email, "password": password})
}

// code posts the one-time code form.
func (f *flow) code(code string) page {
	return f.submit(map[string]string{"code": code})
}

// atCallback reports whether the browser reached the dashboard's callback.
func (f *flow) atCallback() bool { return f.last.url.Path == "/callback" }

// callbackCode returns the code of the callback, after checking state.
func (f *flow) callbackCode() string {
	f.e.t.Helper()
	if !f.atCallback() {
		f.e.t.Fatalf("the browser is at %d %s, not the callback: %s", f.last.status, f.last.url, f.last.body)
	}
	q := f.last.url.Query()
	if q.Get("state") != f.state || q.Get("code") == "" {
		f.e.t.Fatalf("callback query %v: want state %s and a code", q, f.state)
	}
	return q.Get("code")
}

// signedIn is what a finished sign-in gave the dashboard.
type signedIn struct {
	token  *oauth2.Token
	raw    string // the ID token
	id     *oidc.IDToken
	claims claims
}

type claims struct {
	Email         string   `json:"email"`
	EmailVerified bool     `json:"email_verified"`
	AMR           []string `json:"amr"`
	AuthTime      int64    `json:"auth_time"`
}

// exchange trades the callback's code for tokens, as the dashboard does,
// and verifies the ID token: signature, issuer, audience, expiry, nonce.
func (f *flow) exchange() (*signedIn, error) {
	f.e.t.Helper()
	tok, err := f.rp.oauth.Exchange(f.rp.ctx, f.callbackCode(), oauth2.VerifierOption(f.verifier))
	if err != nil {
		return nil, err
	}
	s := &signedIn{token: tok}
	s.raw, _ = tok.Extra("id_token").(string)
	if s.id, err = f.rp.verifier.Verify(f.rp.ctx, s.raw); err != nil {
		f.e.t.Fatalf("ID token: %v", err)
	}
	if s.id.Nonce != f.nonce {
		f.e.t.Fatalf("nonce %q, want %q", s.id.Nonce, f.nonce)
	}
	if err := s.id.Claims(&s.claims); err != nil {
		f.e.t.Fatal(err)
	}
	return s, nil
}

// mustExchange is exchange that fails the test on an error.
func (f *flow) mustExchange() *signedIn {
	f.e.t.Helper()
	s, err := f.exchange()
	if err != nil {
		f.e.t.Fatalf("exchange: %v", err)
	}
	return s
}

// signIn runs a whole sign-in with a password.
func (e *env) signIn(r *rp, email, password string) *signedIn {
	e.t.Helper()
	f := e.start(r)
	f.password(email, password)
	return f.mustExchange()
}
