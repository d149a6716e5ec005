package idptest

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

// RP is the dashboard: a relying party of golang.org/x/oauth2 and
// github.com/coreos/go-oidc/v3, talking to the provider over HTTP.
type RP struct {
	Ctx      context.Context // carries the HTTP client
	Provider *oidc.Provider
	OAuth    oauth2.Config
	Verifier *oidc.IDTokenVerifier
}

// RP discovers the provider.
func (e *Env) RP() *RP {
	e.T.Helper()
	ctx := oidc.ClientContext(context.Background(), e.Srv.Client())
	p, err := oidc.NewProvider(ctx, e.Issuer)
	if err != nil {
		e.T.Fatalf("discovery: %v", err)
	}
	return &RP{Ctx: ctx, Provider: p, Verifier: p.Verifier(&oidc.Config{ClientID: ClientID}),
		OAuth: oauth2.Config{ClientID: ClientID, ClientSecret: ClientSecret, Endpoint: p.Endpoint(),
			RedirectURL: e.Srv.URL + "/callback", Scopes: []string{oidc.ScopeOpenID, "email", oidc.ScopeOfflineAccess}}}
}

// Page is where a browser ended: the response after redirects.
type Page struct {
	Status int
	URL    *url.URL
	Header http.Header
	Body   string
}

// Flow is one sign-in in a browser (a client with a cookie jar that
// follows redirects).
type Flow struct {
	Env                    *Env
	RP                     *RP
	Browser                *http.Client
	State, Nonce, Verifier string
	// Last is the page the browser is on.
	Last Page
}

// Start opens the authorization URL, with opts' parameters; the browser
// lands on the login page.
func (e *Env) Start(r *RP, opts ...oauth2.AuthCodeOption) *Flow {
	e.T.Helper()
	jar, _ := cookiejar.New(nil)
	f := &Flow{Env: e, RP: r, Browser: &http.Client{Jar: jar}, State: oauth2.GenerateVerifier(),
		Nonce: oauth2.GenerateVerifier(), Verifier: oauth2.GenerateVerifier()}
	opts = append(opts, oidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier))
	u := r.OAuth.AuthCodeURL(f.State, opts...)
	f.Last = f.Do(http.NewRequest(http.MethodGet, u, nil))
	if f.Last.Status != http.StatusOK || !strings.HasSuffix(f.Last.URL.Path, "/idp/login") {
		e.T.Fatalf("authorize ended at %d %s: %s", f.Last.Status, f.Last.URL, f.Last.Body)
	}
	return f
}

// Do sends req (unless err is set) in the browser and returns the page
// it ends on.
func (f *Flow) Do(req *http.Request, err error) Page {
	f.Env.T.Helper()
	if err != nil {
		f.Env.T.Fatal(err)
	}
	resp, err := f.Browser.Do(req)
	if err != nil {
		f.Env.T.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return Page{Status: resp.StatusCode, URL: resp.Request.URL, Header: resp.Header, Body: string(b)}
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

// Submit fills the form of the current page with fields, which must all
// be inputs of it, and posts it where the form says (its action, or the
// page's own URL).
func (f *Flow) Submit(fields map[string]string) Page {
	f.Env.T.Helper()
	f.Last = SubmitForm(f.Env.T, f.Browser, f.Last, fields)
	return f.Last
}

// SubmitForm posts the first form of p in browser c, as Submit does.
func SubmitForm(t *testing.T, c *http.Client, p Page, fields map[string]string) Page {
	t.Helper()
	action, v := FormPost(t, p, fields)
	resp, err := c.PostForm(action, v)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return Page{Status: resp.StatusCode, URL: resp.Request.URL, Header: resp.Header, Body: string(b)}
}

// FormPost returns where the form of page p posts and what, filled with
// fields, which must all be inputs of it.
func FormPost(t *testing.T, p Page, fields map[string]string) (string, url.Values) {
	t.Helper()
	m := formRE.FindStringSubmatch(p.Body)
	if m == nil {
		t.Fatalf("no form on %s: %s", p.URL, p.Body)
	}
	form := attrs(m[1])
	if strings.ToLower(form["method"]) != "post" {
		t.Fatalf("the form of %s does not post", p.URL)
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
			t.Fatalf("the form of %s has no input %q (it has %v)", p.URL, k, names)
		}
		v.Set(k, val)
	}
	action, err := p.URL.Parse(form["action"])
	if err != nil {
		t.Fatal(err)
	}
	return action.String(), v
}

// Password posts the login form.
func (f *Flow) Password(email, password string) Page {
	return f.Submit(map[string]string{"email": email, "password": password})
}

// Code posts the one-time code form.
func (f *Flow) Code(code string) Page {
	return f.Submit(map[string]string{"code": code})
}

// AtCallback reports whether the browser reached the dashboard's callback.
func (f *Flow) AtCallback() bool { return f.Last.URL.Path == "/callback" }

// CallbackCode returns the code of the callback, after checking state.
func (f *Flow) CallbackCode() string {
	f.Env.T.Helper()
	if !f.AtCallback() {
		f.Env.T.Fatalf("the browser is at %d %s, not the callback: %s", f.Last.Status, f.Last.URL, f.Last.Body)
	}
	q := f.Last.URL.Query()
	if q.Get("state") != f.State || q.Get("code") == "" {
		f.Env.T.Fatalf("callback query %v: want state %s and a code", q, f.State)
	}
	return q.Get("code")
}

// SignedIn is what a finished sign-in gave the dashboard.
type SignedIn struct {
	Token  *oauth2.Token
	Raw    string // the ID token
	ID     *oidc.IDToken
	Claims Claims
}

// Claims are the ID token's claims that tests check.
type Claims struct {
	Email         string   `json:"email"`
	EmailVerified bool     `json:"email_verified"`
	AMR           []string `json:"amr"`
	AuthTime      int64    `json:"auth_time"`
}

// Exchange trades the callback's code for tokens, as the dashboard does,
// and verifies the ID token: signature, issuer, audience, expiry, nonce.
func (f *Flow) Exchange() (*SignedIn, error) {
	f.Env.T.Helper()
	tok, err := f.RP.OAuth.Exchange(f.RP.Ctx, f.CallbackCode(), oauth2.VerifierOption(f.Verifier))
	if err != nil {
		return nil, err
	}
	s := &SignedIn{Token: tok}
	s.Raw, _ = tok.Extra("id_token").(string)
	if s.ID, err = f.RP.Verifier.Verify(f.RP.Ctx, s.Raw); err != nil {
		f.Env.T.Fatalf("ID token: %v", err)
	}
	if s.ID.Nonce != f.Nonce {
		f.Env.T.Fatalf("nonce %q, want %q", s.ID.Nonce, f.Nonce)
	}
	if err := s.ID.Claims(&s.Claims); err != nil {
		f.Env.T.Fatal(err)
	}
	return s, nil
}

// MustExchange is Exchange that fails the test on an error.
func (f *Flow) MustExchange() *SignedIn {
	f.Env.T.Helper()
	s, err := f.Exchange()
	if err != nil {
		f.Env.T.Fatalf("exchange: %v", err)
	}
	return s
}

// SignIn runs a whole sign-in with a password.
func (e *Env) SignIn(r *RP, email, password string) *SignedIn {
	e.T.Helper()
	f := e.Start(r)
	f.Password(email, password)
	return f.MustExchange()
}
