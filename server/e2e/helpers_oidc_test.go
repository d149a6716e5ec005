package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/server/internal/oidctest"
)

// The test provider's user and feedbackd's registration with it. The
// example storage's user logs in as test-user@ the issuer's host name,
// and its email claim is opEmail.
const (
	opUser         = oidctest.User
	opPassword     = oidctest.Password
	opEmail        = oidctest.Email
	opClientID     = "dashboard"
	opClientSecret = "dashboard-secret"
)

// startSignInServer starts feedbackd, as startServer does, with
// dashboard sign-in through a test provider. Its address is chosen
// first, since the provider must know the redirect URL.
func startSignInServer(t *testing.T) *server {
	t.Helper()
	dir := t.TempDir()
	addr := freeAddr(t)
	s := &server{t: t, addr: addr, base: "http://" + addr,
		db: filepath.Join(dir, "feedback.db"), log: filepath.Join(dir, "feedbackd.log")}
	issuer := oidctest.Start(t, oidctest.Client{ID: opClientID, Secret: opClientSecret, Redirect: s.base + "/auth/callback"})
	s.seed()
	s.startWith(env.webA, "--oidc-issuer", issuer, "--oidc-client-id", opClientID, "--oidc-client-secret", opClientSecret)
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			out, _ := os.ReadFile(s.log)
			t.Logf("feedbackd log (last 8 KiB):\n%s", tail(out, 8192))
		}
	})
	return s
}

// startWith runs feedbackd serve, as start does, with extra flags.
func (s *server) startWith(web string, extra ...string) {
	s.t.Helper()
	f, err := os.OpenFile(s.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	args := append([]string{"serve", "--addr", s.addr, "--db", s.db, "--web-dir", web, "--base-url", s.base,
		"--log-level", "debug"}, extra...)
	cmd := exec.Command(env.feedbackd, args...)
	cmd.Env = append(os.Environ(), "FEEDBACK_VISITOR_LIMIT=100000", "FEEDBACK_POSTER_LIMIT=100000", "FEEDBACK_RATE_LIMIT=100000")
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func(done chan struct{}) {
		_ = cmd.Wait()
		close(done)
	}(s.done)
	s.waitReady()
}

// sessionCookies describes the dashboard's session cookies that the
// browser holds for base, sorted, as "name Secure HttpOnly SameSite".
func sessionCookies(b *browser, base string) []string {
	b.t.Helper()
	res, err := chromedp.Call(b.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{base + "/"}})
	if err != nil {
		b.t.Fatalf("Network.getCookies: %v", err)
	}
	var out []string
	for _, c := range res.Cookies {
		if !strings.HasPrefix(c.Name, "__Host-fb_") {
			continue
		}
		d := c.Name
		if c.Secure {
			d += " Secure"
		}
		if c.HTTPOnly {
			d += " HttpOnly"
		}
		out = append(out, d+" "+string(c.SameSite))
	}
	slices.Sort(out)
	return out
}
