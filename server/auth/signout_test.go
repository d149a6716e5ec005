package auth_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/auth"
)

// endSessionLink matches the link of the page that continues a sign-out
// to the provider.
var endSessionLink = regexp.MustCompile(`<a id="end-session" href="([^"]+)"`)

// signOut posts the dashboard's sign-out form from the page at path and
// goes where the answer leads, following redirects and the page that
// continues to the provider, as a browser does. It returns where the
// sign-out itself sent the browser: the provider's end_session URL, or
// the redirect's location; and the status, URL and body of the page it
// lands on.
func (r *rig) signOut(t *testing.T, b *browser, path string) (string, int, *url.URL, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", r.URL+"/auth/logout", nil)
	req.Header.Set("Origin", r.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Referer", r.URL+path)
	var first string
	b.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) == 1 && first == "" {
			first = req.Response.Header.Get("Location")
		}
		return nil
	}
	defer func() { b.CheckRedirect = nil }()
	res, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body := readBody(t, res)
	if m := endSessionLink.FindStringSubmatch(body); first == "" && m != nil {
		first = html.UnescapeString(m[1])
		if !strings.Contains(body, `<meta http-equiv="refresh" content="0;url=`+m[1]+`">`) {
			t.Errorf("the sign-out page does not go on to the provider at once:\n%s", body)
		}
		if res, err = b.Get(first); err != nil {
			t.Fatal(err)
		}
		body = readBody(t, res)
	}
	return first, res.StatusCode, res.Request.URL, body
}

// TestSignOut revokes the session at once: its cookies fail on this
// instance and on another one on the same database. The browser goes to
// the provider's end_session_endpoint with the session's ID token and
// comes back to the page that says it is signed out, whose Sign in link
// returns to the page it signed out from.
func TestSignOut(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open)
		r.workspace(t, "acme")
		b := r.browser(t)
		r.signIn(t, b, "/")
		access := b.lastSet(auth.AccessCookie).Value
		other := r.handler(open(t, r.Clock.Now), auth.Config{})
		forged, _ := http.NewRequest("POST", r.URL+"/auth/logout", nil)
		forged.Header.Set("Sec-Fetch-Site", "cross-site")
		res, err := b.Do(forged)
		if err != nil {
			t.Fatal(err)
		}
		if page := readBody(t, res); res.StatusCode != http.StatusForbidden || !strings.Contains(page, "Sign out from the dashboard itself") ||
			r.api(t, b, "GET", "/api/v1/me").StatusCode != http.StatusOK {
			t.Errorf("a cross-site sign-out answered %d and ended the session:\n%s", res.StatusCode, page)
		}
		first, status, landed, page := r.signOut(t, b, "/w/acme/settings")
		end, _ := url.Parse(first)
		q := end.Query()
		if !strings.HasPrefix(end.String(), r.Issuer+"/end_session?") ||
			q.Get("client_id") != clientID || q.Get("post_logout_redirect_uri") != r.URL+"/auth/signed-out" ||
			q.Get("state") != "/w/acme/settings" || strings.Count(q.Get("id_token_hint"), ".") != 2 {
			t.Errorf("sign-out sent the browser to %s; want the provider's end_session with our ID token", end)
		}
		if b.lastSet(auth.AccessCookie).MaxAge >= 0 || b.lastSet(auth.RefreshCookie).MaxAge >= 0 {
			t.Errorf("sign-out did not clear the cookies")
		}
		if status != http.StatusOK || landed.Path != "/auth/signed-out" || !strings.Contains(page, "You are signed out.") ||
			!strings.Contains(page, `id="sign-in" href="/auth/login?return_to=%2Fw%2Facme%2Fsettings"`) {
			t.Errorf("sign-out ended at %d %s:\n%s", status, landed, page)
		}
		for name, h := range map[string]http.Handler{"this instance": nil, "another instance": other} {
			req, _ := http.NewRequest("GET", r.URL+"/api/v1/me", nil)
			req.AddCookie(&http.Cookie{Name: auth.AccessCookie, Value: access})
			if code := serve(t, r, h, req); code != 401 {
				t.Errorf("%s accepted the signed-out session (%d)", name, code)
			}
		}
		if r.refreshWorks(t, r.Tokens.last(t)) {
			t.Errorf("the provider refresh token still works after sign-out")
		}
	})
}

// TestSignOutEndsProviderSession is a shared computer: after Sign out,
// Sign in asks for the password again, although the provider keeps a
// browser session (while it lasts, Sign in needs no password).
func TestSignOutEndsProviderSession(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open)
		r.workspace(t, "acme")
		b := r.browser(t)
		r.signIn(t, b, "/w/acme/")
		if status, landed, page := r.get(t, b, "/auth/login?return_to=/w/acme/"); status != http.StatusOK ||
			landed.Path != "/auth/callback" || !strings.Contains(page, "You are signed in.") {
			t.Fatalf("while the provider's session lasts, Sign in ended at %d %s:\n%s", status, landed, page)
		}
		r.signOut(t, b, "/w/acme/")
		status, landed, page := r.get(t, b, "/auth/login?return_to=/w/acme/")
		if status != http.StatusOK || !strings.HasPrefix(landed.String(), r.Issuer+"/login/username") ||
			!hiddenID.MatchString(page) {
			t.Errorf("Sign in after Sign out ended at %d %s, not at the provider's login form:\n%s", status, landed, page)
		}
	})
}

// TestSignOutWithoutEndSession: a provider without end_session_endpoint
// still has its refresh token revoked, and the browser goes straight to
// the signed-out page.
func TestSignOutWithoutEndSession(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open, func(s *setup) { s.Provider.NoEndSession = true })
		b := r.browser(t)
		r.signIn(t, b, "/")
		first, status, landed, page := r.signOut(t, b, "/settings/security")
		if first != "/auth/signed-out?state=%2Fsettings%2Fsecurity" {
			t.Errorf("sign-out redirected to %q", first)
		}
		if status != http.StatusOK || landed.Path != "/auth/signed-out" || !strings.Contains(page, "You are signed out.") {
			t.Errorf("sign-out ended at %d %s:\n%s", status, landed, page)
		}
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET /me after sign-out answered %d", res.StatusCode)
		}
		if r.refreshWorks(t, r.Tokens.last(t)) {
			t.Errorf("the provider refresh token still works after sign-out")
		}
	})
}

// TestEmbeddedSignOut: with the embedded provider, sign-out passes its
// end_session (registered post-logout URI) and ends on the signed-out
// page; the same account's session on another device goes on, also past
// its hourly renewal at the provider.
func TestEmbeddedSignOut(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newEmbeddedRig(t, open)
		phone, b := r.browser(t), r.browser(t)
		r.signIn(t, phone, "/")
		r.signIn(t, b, "/")
		first, status, landed, page := r.signOut(t, b, "/settings/security")
		if !strings.HasPrefix(first, r.Issuer+"/end_session?") {
			t.Errorf("sign-out sent the browser to %q; want the embedded provider's end_session", first)
		}
		if status != http.StatusOK || landed.String() != r.URL+"/auth/signed-out?state=%2Fsettings%2Fsecurity" ||
			!strings.Contains(page, "You are signed out.") {
			t.Errorf("sign-out ended at %d %s:\n%s", status, landed, page)
		}
		r.Clock.Add(auth.AccessTTL + time.Minute)
		if res := r.api(t, phone, "GET", "/api/v1/me"); res.StatusCode != http.StatusOK {
			t.Errorf("the other device's session answered %d after an hour; want it renewed", res.StatusCode)
		}
	})
}

// get opens path in the browser, following redirects, and returns the
// status, URL and body of the page it lands on.
func (r *rig) get(t *testing.T, b *browser, path string) (int, *url.URL, string) {
	t.Helper()
	res, err := b.Get(r.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Request.URL, readBody(t, res)
}
