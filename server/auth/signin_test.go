package auth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server/auth"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// TestSignIn goes through the spec's flow: open the workspace's sign-in
// link, sign in at the provider, come back to a page that continues to
// the dashboard, with Strict, Secure, HttpOnly __Host- cookies of the
// spec's lifetimes, and use the API with them.
func TestSignIn(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open)
		r.workspace(t, "acme")
		b := r.browser(t)
		status, page := r.signIn(t, b, "/w/acme/")
		if status != http.StatusOK || !strings.Contains(page, "signed in") ||
			!strings.Contains(page, `content="0;url=/w/acme/"`) {
			t.Fatalf("the callback answered %d:\n%s", status, page)
		}
		for name, ttl := range map[string]time.Duration{auth.AccessCookie: auth.AccessTTL, auth.RefreshCookie: auth.RefreshTTL} {
			c := b.lastSet(name)
			if c == nil || !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" ||
				c.Domain != "" || c.MaxAge != int(ttl/time.Second) {
				t.Errorf("cookie %s = %+v; want Secure, HttpOnly, SameSite=Strict, Path=/, no Domain, Max-Age %v", name, c, ttl)
			}
		}
		if c := b.lastSet(auth.LoginCookie); c == nil || c.MaxAge >= 0 {
			t.Errorf("the login cookie was not cleared at the callback: %+v", c)
		}
		var me feedback.Me
		getJSON(t, r, b, "/api/v1/me", &me)
		if !me.PlatformOwner || me.Email != "test-user@zitadel.ch" || len(me.Workspaces) != 1 ||
			me.Workspaces[0].Role != feedback.RoleOwner {
			t.Errorf("GET /me after the first sign-in: %+v", me)
		}
		var sessions feedback.Page[feedback.Session]
		getJSON(t, r, b, "/api/v1/sessions", &sessions)
		if len(sessions.Data) != 1 || !sessions.Data[0].Current || sessions.Data[0].UserAgent == "" {
			t.Errorf("GET /sessions: %+v", sessions.Data)
		}
		entries, _, err := r.Store.AuditLog(context.Background(), feedback.ListParams{Page: 1, PerPage: 10})
		if err != nil || len(entries) != 1 || entries[0].Action != feedback.AuditSignIn || entries[0].Details["amr"] != "pwd" {
			t.Errorf("the audit log after sign-in: %+v, %v", entries, err)
		}
	})
}

func getJSON(t *testing.T, r *rig, b *browser, path string, v any) {
	t.Helper()
	res, err := b.Get(r.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	body := readBody(t, res)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s answered %d: %s", path, res.StatusCode, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatal(err)
	}
}

// TestSessionLifetimes moves the clock: past an hour the access cookie
// is renewed from the refresh cookie, which rotates; a rotated-out
// refresh value used again ends the session (theft detection); past 30
// days the session is over.
func TestSessionLifetimes(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r := newRig(t, open)
		r.workspace(t, "acme")
		b := r.browser(t)
		r.signIn(t, b, "/")
		stolen := b.lastSet(auth.RefreshCookie).Value
		r.Clock.Add(auth.AccessTTL + time.Minute)
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != http.StatusOK {
			t.Fatalf("after an hour GET /me answered %d; want a transparent renewal", res.StatusCode)
		}
		if b.lastSet(auth.RefreshCookie).Value == stolen || b.lastSet(auth.AccessCookie).MaxAge != 3600 {
			t.Errorf("the renewal did not rotate the refresh cookie or set a new access cookie")
		}
		r.Clock.Add(time.Minute) // past the grace of a concurrent renewal
		thief := r.browser(t)
		req, _ := http.NewRequest("GET", r.URL+"/api/v1/me", nil)
		req.AddCookie(&http.Cookie{Name: auth.RefreshCookie, Value: stolen})
		res, err := thief.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if body := readBody(t, res); res.StatusCode != 401 || !strings.Contains(body, feedback.ETokenRevoked) {
			t.Errorf("a reused refresh value answered %d %s; want 401 token_revoked", res.StatusCode, body)
		}
		if res := r.api(t, b, "GET", "/api/v1/me"); res.StatusCode != 401 {
			t.Errorf("after the reuse the victim's session still works (%d); the family must be revoked", res.StatusCode)
		}

		late := r.browser(t)
		r.signIn(t, late, "/")
		r.Clock.Add(auth.RefreshTTL + time.Minute)
		if res := r.api(t, late, "GET", "/api/v1/me"); res.StatusCode != 401 {
			t.Errorf("after 30 days GET /me answered %d; want 401", res.StatusCode)
		}
	})
}

// serve sends req to h in process, or to the rig's server when h is nil.
func serve(t *testing.T, r *rig, h http.Handler, req *http.Request) int {
	if h == nil {
		res, err := (&http.Client{Transport: r.tls}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	rec := newRecorder()
	h.ServeHTTP(rec, req)
	return rec.code
}
