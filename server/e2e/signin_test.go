package e2e_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// phoneUA is the User-Agent of the second sign-in, so that its session
// reads differently in the list.
const phoneUA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"

// Dashboard elements the test waits for (app/dashboard).
const (
	signInLink    = `document.getElementById("sign-in")`
	sessionRows   = `document.querySelectorAll("#sessions tbody tr")`
	otherRevoke   = `#sessions tbody tr:not(.current) button.revoke`
	demoDashboard = "/w/demo/"
)

// TestSignIn walks the dashboard's sign-in as a person would: open the
// workspace, choose Sign in, log in at the identity provider, land on
// the dashboard, open Settings > Security, revoke the session of another
// device (signed in beforehand from a second browser context), and sign
// out, which ends the provider's own session too: choosing Sign in again
// asks for the password (on a shared computer, the next person must not
// get in without it).
func TestSignIn(t *testing.T) {
	needBrowser(t)
	t.Parallel()
	start := time.Now()
	s := startSignInServer(t)
	b := newBrowser(t)
	phone := signInElsewhere(t, b, s)
	t.Logf("second session signed in after %v", time.Since(start).Round(time.Millisecond))

	b.do(chromedp.Navigate(s.base + demoDashboard))
	b.waitWasm()
	b.waitFor("the signed-out view", signInLink, 30*time.Second)
	if href := eval[string](b, signInLink+`.getAttribute("href")`); href != "/auth/login?return_to=/w/demo/" {
		t.Errorf("the Sign in link goes to %q", href)
	}
	b.do(chromedp.Click(chromedp.ID("sign-in")))
	providerLogin(b)
	b.waitFor("the dashboard with the user's email",
		`document.getElementById("user-email")?.textContent === `+jsString(opEmail), 60*time.Second)
	if got := eval[string](b, `location.pathname`); got != demoDashboard {
		t.Errorf("signed in at %s, want %s", got, demoDashboard)
	}
	b.waitText("Latest feedback", 5*time.Second)
	// Chromium keeps Secure (and so __Host-) cookies from plain http on
	// 127.0.0.1, a potentially trustworthy origin.
	want := []string{"__Host-fb_access Secure HttpOnly Strict", "__Host-fb_refresh Secure HttpOnly Strict"}
	if got := sessionCookies(b, s.base); !slices.Equal(got, want) {
		t.Errorf("session cookies after signing in: %q, want %q", got, want)
	}
	t.Logf("signed in after %v", time.Since(start).Round(time.Millisecond))

	b.do(chromedp.Click(chromedp.ID("nav-security")))
	b.waitFor("the two sessions", sessionRows+`.length === 2`, 30*time.Second)
	if got := eval[string](b, `location.pathname`); got != "/settings/security" {
		t.Errorf("Security settings at %s", got)
	}
	current := eval[string](b, `document.querySelector("#sessions tbody tr.current")?.innerText ?? ""`)
	other := eval[string](b, `document.querySelector("#sessions tbody tr:not(.current)")?.innerText ?? ""`)
	if !strings.Contains(current, "This device") || !strings.Contains(other, "Safari on iPhone") || strings.Contains(other, "This device") {
		t.Errorf("sessions listed as\n  current: %q\n  other: %q", current, other)
	}

	b.do(chromedp.Click(chromedp.CSS(otherRevoke)))
	b.waitFor("the other session to disappear", sessionRows+`.length === 1 && !document.querySelector(".revoke[disabled]")`, 30*time.Second)
	b.waitText("Revoked the session of Safari on iPhone", 5*time.Second)
	if status := eval[int](phone, `fetch("/api/v1/me").then((r) => r.status)`); status != 401 {
		t.Errorf("the revoked session still reads /api/v1/me: %d", status)
	}

	b.do(chromedp.Click(chromedp.ID("sign-out")))
	b.waitFor("the signed-out page after signing out", `location.pathname === "/auth/signed-out" && `+signInLink, 30*time.Second)
	b.waitText("You are signed out.", 5*time.Second)
	if status := eval[int](b, `fetch("/api/v1/me").then((r) => r.status)`); status != 401 {
		t.Errorf("after signing out /api/v1/me answers %d", status)
	}
	if got := sessionCookies(b, s.base); len(got) != 0 {
		t.Errorf("session cookies after signing out: %q", got)
	}
	if href := eval[string](b, signInLink+`.getAttribute("href")`); href != "/auth/login?return_to=%2Fsettings%2Fsecurity" {
		t.Errorf("the signed-out page's Sign in link goes to %q", href)
	}
	b.do(chromedp.Navigate(s.base + demoDashboard))
	b.waitWasm()
	b.waitFor("the signed-out view on a fresh load", signInLink, 30*time.Second)
	t.Logf("signed out after %v", time.Since(start).Round(time.Millisecond))

	b.do(chromedp.Click(chromedp.ID("sign-in")))
	b.waitFor("the provider's login page, asking for the password again",
		`document.getElementById("op-password") || location.pathname === "/w/demo/"`, 30*time.Second)
	if eval[string](b, `location.pathname`) == demoDashboard {
		t.Fatalf("Sign in after Sign out went back to the dashboard without asking for the password")
	}
	providerLogin(b)
	b.waitFor("the dashboard after signing in again",
		`document.getElementById("user-email")?.textContent === `+jsString(opEmail), 60*time.Second)
}

// providerLogin types the test user's credentials into the provider's
// login page, which the browser is on its way to, and submits them.
func providerLogin(b *browser) {
	b.t.Helper()
	b.waitFor("the provider's login page", `document.getElementById("op-username")`, 30*time.Second)
	b.do(chromedp.SendKeys(chromedp.ID("op-username"), opUser),
		chromedp.SendKeys(chromedp.ID("op-password"), opPassword),
		chromedp.Click(chromedp.CSS(`#op-login button[type=submit]`)))
}

// signInElsewhere signs the test user in from a second browser context
// of b (a profile of its own, with a phone's User-Agent) and waits until
// its session works. It returns that context's tab.
func signInElsewhere(t *testing.T, b *browser, s *server) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	phone := &browser{t: t, ctx: ctx, workers: map[target.ID]context.Context{}}
	if _, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: phoneUA}); err != nil {
		t.Fatalf("Emulation.setUserAgentOverride: %v", err)
	}
	phone.do(chromedp.Navigate(s.base + "/auth/login?return_to=" + demoDashboard))
	providerLogin(phone)
	phone.waitFor("the second session", `location.pathname === "/w/demo/" && fetch("/api/v1/me").then((r) => r.ok)`, 30*time.Second)
	return phone
}
