package e2e_test

import (
	"os"
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
// dashboard sign-in through a test provider and the extra serve flags.
// Its address is chosen first, since the provider must know the
// redirect URL.
func startSignInServer(t *testing.T, extra ...string) *server {
	t.Helper()
	dir := t.TempDir()
	addr := freeAddr(t)
	s := &server{t: t, addr: addr, base: "http://" + addr,
		db: filepath.Join(dir, "feedback.db"), log: filepath.Join(dir, "feedbackd.log")}
	issuer := oidctest.Start(t, oidctest.Client{ID: opClientID, Secret: opClientSecret, Redirect: s.base + "/auth/callback",
		PostLogout: s.base + "/auth/signed-out"})
	s.seed()
	s.startWith(env.webA, append([]string{"--oidc-issuer", issuer, "--oidc-client-id", opClientID, "--oidc-client-secret", opClientSecret}, extra...)...)
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			out, _ := os.ReadFile(s.log)
			t.Logf("feedbackd log (last 8 KiB):\n%s", tail(out, 8192))
		}
	})
	return s
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
