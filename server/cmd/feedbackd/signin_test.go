package main

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// localhostJar is a cookie jar that, like a browser on http://localhost
// (a potentially trustworthy origin), sends Secure cookies over plain
// http.
type localhostJar struct{ *cookiejar.Jar }

func (j localhostJar) SetCookies(u *url.URL, cs []*http.Cookie) {
	for _, c := range cs {
		c.Secure = false
	}
	j.Jar.SetCookies(u, cs)
}

// TestEmbeddedProviderSignIn runs serve with no external provider: an
// account made with "feedbackd user create" sets its password through
// the printed link and signs in to the dashboard through the embedded
// provider, with the same relying party as for an external one.
func TestEmbeddedProviderSignIn(t *testing.T) {
	m := newTestMain(t, nil)
	m.run(t, "workspace", "create", "--name", "Acme", "--slug", "acme")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	m.Ready = ready
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, []string{"serve", "--addr", "127.0.0.1:0"}) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve stopped: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start")
	}
	base := "http://localhost:" + addr[strings.LastIndex(addr, ":")+1:]
	link := strings.TrimSpace(m.run(t, "user", "create", "--email", "ada@example.com", "--base-url", base))
	if !strings.HasPrefix(link, base+"/idp/password?token=") {
		t.Fatalf("user create printed %q; want a link under %s/idp", link, base)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: localhostJar{jar}}
	const password = "correct horse battery"
	page := send(t, c, link, url.Values{"password": {password}, "confirm": {password}})
	if !strings.Contains(strings.ToLower(page.body), "password") || page.status != http.StatusOK {
		t.Fatalf("setting the password answered %d:\n%s", page.status, page.body)
	}
	login := fetch(t, c, base+"/auth/login?return_to=/w/acme/")
	if !strings.HasPrefix(login.url, base+"/idp/") || !strings.Contains(login.body, `name="email"`) {
		t.Fatalf("the sign-in link led to %s:\n%s", login.url, login.body)
	}
	back := send(t, c, login.url, url.Values{"email": {"ada@example.com"}, "password": {password}})
	if back.status != http.StatusOK || !regexp.MustCompile(`url=/w/acme/`).MatchString(back.body) {
		t.Fatalf("the callback answered %d at %s:\n%s", back.status, back.url, back.body)
	}
	me := fetch(t, c, base+"/api/v1/me")
	if me.status != http.StatusOK || !strings.Contains(me.body, `"email":"ada@example.com"`) ||
		!strings.Contains(me.body, `"platform_owner":true`) {
		t.Errorf("GET /api/v1/me after signing in: %d %s", me.status, me.body)
	}

	// Sign out passes the embedded provider's end_session, which knows
	// our signed-out page as the dashboard client's post-logout URI.
	out := send(t, c, base+"/auth/logout", nil)
	end := regexp.MustCompile(`<a id="end-session" href="([^"]+)"`).FindStringSubmatch(out.body)
	if end == nil || !strings.HasPrefix(html.UnescapeString(end[1]), base+"/idp/end_session?") {
		t.Fatalf("sign-out answered %d:\n%s", out.status, out.body)
	}
	if p := fetch(t, c, html.UnescapeString(end[1])); p.status != http.StatusOK || !strings.HasPrefix(p.url, base+"/auth/signed-out?") ||
		!strings.Contains(p.body, "You are signed out.") {
		t.Errorf("the provider's end_session ended at %d %s:\n%s", p.status, p.url, p.body)
	}
	if me := fetch(t, c, base+"/api/v1/me"); me.status != http.StatusUnauthorized {
		t.Errorf("GET /api/v1/me after signing out: %d", me.status)
	}

	// The demo's account signs in with the password the demo printed.
	out = answer{body: m.run(t, "demo", "--base-url", base)}
	pw := regexp.MustCompile(`password: (\S+)`).FindStringSubmatch(out.body)
	if pw == nil || !strings.Contains(out.body, base+"/w/demo/") {
		t.Fatalf("demo printed no dashboard sign-in:\n%s", out.body)
	}
	jar, _ = cookiejar.New(nil)
	c = &http.Client{Jar: localhostJar{jar}}
	login = fetch(t, c, base+"/auth/login?return_to=/w/demo/")
	back = send(t, c, login.url, url.Values{"email": {"admin@demo.example"}, "password": {pw[1]}})
	if me := fetch(t, c, base+"/api/v1/me"); back.status != http.StatusOK || me.status != http.StatusOK ||
		!strings.Contains(me.body, `"email":"admin@demo.example"`) { // owner when it is the first to sign in
		t.Errorf("the demo account's sign-in: callback %d, /me %d %s", back.status, me.status, me.body)
	}
}

type answer struct {
	status    int
	url, body string
}

func fetch(t *testing.T, c *http.Client, u string) answer {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	return read(t, res)
}

func send(t *testing.T, c *http.Client, u string, form url.Values) answer {
	t.Helper()
	res, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	return read(t, res)
}

func read(t *testing.T, res *http.Response) answer {
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{res.StatusCode, res.Request.URL.String(), string(b)}
}
