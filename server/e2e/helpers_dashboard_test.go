package e2e_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// signedInAt starts a parallel test of the dashboard's page (a path
// under the demo workspace's dashboard): it starts a server, signs in
// through the provider in a desktop-sized browser that lands on the
// page, and waits until ready, a script naming what, is true. extra are
// more flags of feedbackd serve. It returns the server, the browser and
// axe-core's script.
func signedInAt(t *testing.T, page, what, ready string, extra ...string) (*server, *browser, string) {
	t.Helper()
	needBrowser(t)
	axe := axeScript(t)
	t.Parallel()
	s := startSignInServer(t, extra...)
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(1280, 800))
	b.do(chromedp.Navigate(s.base + "/auth/login?return_to=" + demoDashboard + page))
	providerLogin(b)
	b.waitFor(what, ready, 60*time.Second)
	return s, b, axe
}
