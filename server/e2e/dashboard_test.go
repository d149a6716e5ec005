package e2e_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDashboardOnPhone signs in on a phone's screen and checks that each
// dashboard page fits its width (a table as wide as its columns would
// scroll the page sideways) and passes axe-core: the overview, the
// security settings with the active sessions, and a settings page that
// does not exist, answered in the dashboard's frame.
func TestDashboardOnPhone(t *testing.T) {
	needBrowser(t)
	axe := axeScript(t)
	t.Parallel()
	s := startSignInServer(t)
	b := newBrowser(t)
	b.phone()
	b.do(chromedp.Navigate(s.base + "/auth/login?return_to=" + demoDashboard))
	providerLogin(b)
	b.waitFor("the dashboard", `document.getElementById("user-email")?.textContent === `+jsString(opEmail), 60*time.Second)
	checkFits(t, b, "overview")
	checkA11y(t, b, axe, "overview")

	if eval[bool](b, `!!document.getElementById("nav-security").offsetParent`) {
		t.Error("the navigation takes the phone's screen before the menu is opened")
	}
	b.do(chromedp.Click(chromedp.ID("menu-toggle")))
	b.waitFor("the menu", `document.getElementById("menu-toggle").getAttribute("aria-expanded") === "true" &&
		!!document.getElementById("nav-security").offsetParent`, 10*time.Second)
	checkA11y(t, b, axe, "overview with the menu open")
	b.do(chromedp.Click(chromedp.ID("nav-security")))
	b.waitFor("the sessions", sessionRows+`.length === 1 && !document.getElementById("nav-security").offsetParent`, 30*time.Second)
	checkFits(t, b, "security settings")
	checkA11y(t, b, axe, "security settings")

	b.do(chromedp.Navigate(s.base + "/settings/tokens"))
	b.waitWasm()
	b.waitFor("the not-found page in the dashboard",
		`document.getElementById("user-email") && document.getElementById("page-title")?.textContent === "Page not found"`, 30*time.Second)
	checkFits(t, b, "missing settings page")
	checkA11y(t, b, axe, "missing settings page")
}
