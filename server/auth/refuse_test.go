package auth_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/server/auth"
)

type statusRecorder struct {
	*httptest.ResponseRecorder
	code int
}

func newRecorder() *statusRecorder { return &statusRecorder{ResponseRecorder: httptest.NewRecorder()} }

func (s *statusRecorder) WriteHeader(code int) { s.code = code; s.ResponseRecorder.WriteHeader(code) }

// TestSignInRefusals tampers with each protection of the flow: every
// attempt ends on a readable 400 page, in words and without a library's
// or the provider's text (that goes to the log), and starts no session.
func TestSignInRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open)
		r.workspace(t, "acme")
		cases := []struct {
			name   string
			tamper func(t *testing.T, b *browser, callback *url.URL)
			want   string
			logged string // what the log says of it
		}{
			{"state", func(_ *testing.T, _ *browser, cb *url.URL) {
				q := cb.Query()
				q.Set("state", "forged")
				cb.RawQuery = q.Encode()
			}, "state mismatch", "state mismatch"},
			{"no login cookie", func(t *testing.T, b *browser, cb *url.URL) {
				u, _ := url.Parse(r.URL)
				b.Jar.SetCookies(u, []*http.Cookie{{Name: auth.LoginCookie, Value: "", MaxAge: -1, Path: "/"}})
			}, "another browser", "another browser"},
			{"nonce", func(t *testing.T, b *browser, cb *url.URL) { r.reseal(t, b, func(l *auth.Login) { l.Nonce = "other" }) },
				"nonce mismatch", "nonce mismatch"},
			{"PKCE verifier", func(t *testing.T, b *browser, cb *url.URL) {
				r.reseal(t, b, func(l *auth.Login) { l.Verifier = strings.Repeat("v", 43) })
			}, "could not be exchanged", "invalid code_verifier"},
			{"provider error", func(_ *testing.T, _ *browser, cb *url.URL) {
				cb.RawQuery = url.Values{"error": {"access_denied"}, "error_description": {"<b>no</b>"}}.Encode()
			}, "cancelled or refused", "<b>no</b>"},
			{"provider's other error", func(_ *testing.T, _ *browser, cb *url.URL) {
				cb.RawQuery = url.Values{"error": {"<i>odd</i>"}}.Encode()
			}, "did not sign you in", "<i>odd</i>"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				b := r.browser(t)
				cb := r.stopAtCallback(t, b)
				c.tamper(t, b, cb)
				b.CheckRedirect = nil
				res, err := b.Get(cb.String())
				if err != nil {
					t.Fatal(err)
				}
				page := readBody(t, res)
				if res.StatusCode != http.StatusBadRequest || !strings.Contains(page, c.want) {
					t.Errorf("answered %d:\n%s\nwant 400 saying %q", res.StatusCode, page, c.want)
				}
				for _, raw := range []string{"oauth2", "invalid_grant", "<b>", "<i>", "odd", "no</b>"} {
					if strings.Contains(page, raw) {
						t.Errorf("the page shows %q:\n%s", raw, page)
					}
				}
				if !strings.Contains(r.Log.String(), c.logged) {
					t.Errorf("the log does not say %q:\n%s", c.logged, r.Log)
				}
				if b.lastSet(auth.AccessCookie) != nil {
					t.Errorf("a refused sign-in set a session cookie")
				}
			})
		}
	})
}

// TestSignInRequiresMFA: with MFA required, a sign-in whose ID token
// reports a password only (the example provider's amr is ["pwd"]) is
// refused with a page that says why, and the refresh token it brought is
// revoked at the provider.
func TestSignInRequiresMFA(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open, func(s *setup) { s.Config.RequireMFA = true })
		b := r.browser(t)
		status, page := r.signIn(t, b, "/")
		if status != http.StatusBadRequest || !strings.Contains(page, "second factor") {
			t.Errorf("answered %d:\n%s", status, page)
		}
		if b.lastSet(auth.AccessCookie) != nil {
			t.Errorf("a sign-in without a second factor got a session")
		}
		if r.refreshWorks(t, r.Tokens.last(t)) {
			t.Errorf("the refused sign-in's refresh token still works at the provider")
		}
	})
}

// TestCrossOriginSessionRequests: an unsafe request that carries the
// session cookie but comes from another site is refused.
func TestCrossOriginSessionRequests(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open)
		r.workspace(t, "acme")
		b := r.browser(t)
		r.signIn(t, b, "/")
		req, _ := http.NewRequest("POST", r.URL+"/api/v1/locations", strings.NewReader(`{"name":"Lobby"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		res, err := b.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if body := readBody(t, res); res.StatusCode != http.StatusForbidden {
			t.Errorf("a cross-site POST with the session answered %d: %s", res.StatusCode, body)
		}
		req, _ = http.NewRequest("POST", r.URL+"/api/v1/locations", strings.NewReader(`{"name":"Lobby"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		res, err = b.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if body := readBody(t, res); res.StatusCode != http.StatusCreated {
			t.Errorf("a same-origin POST with the session answered %d: %s", res.StatusCode, body)
		}
	})
}

// stopAtCallback signs in up to the provider's redirect back to us and
// returns the callback URL without following it.
func (r *rig) stopAtCallback(t *testing.T, b *browser) *url.URL {
	t.Helper()
	var cb *url.URL
	b.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), r.URL+"/auth/callback") {
			cb = req.URL
			return http.ErrUseLastResponse
		}
		return nil
	}
	r.signIn(t, b, "/")
	if cb == nil {
		t.Fatal("the provider never redirected to the callback")
	}
	return cb
}

// reseal rewrites the browser's login cookie through the server's key,
// as only an attacker holding it could.
func (r *rig) reseal(t *testing.T, b *browser, change func(*auth.Login)) {
	t.Helper()
	u, _ := url.Parse(r.URL)
	req := &http.Request{Header: http.Header{}}
	for _, c := range b.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	l := auth.TakeLogin(rec, req, r.Keys)
	if l == nil {
		t.Fatal("no login cookie to tamper with")
	}
	change(l)
	rec = httptest.NewRecorder()
	if err := auth.SetLogin(rec, r.Keys, l); err != nil {
		t.Fatal(err)
	}
	b.Jar.SetCookies(u, rec.Result().Cookies())
}
