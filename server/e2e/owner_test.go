package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/feedbackhq/feedback/server/internal/oidctest"
)

// TestDashboardPlatformOwner runs the platform owner's pages on an
// installation that signs in through its embedded provider: the owner
// creates a workspace (a taken slug is refused at its field), switches
// to it with the keyboard and sees its empty overview; adds an OpenID
// provider as a federation (the redirect URI to register is shown),
// through which someone of its domain then signs in and joins a
// workspace, who sees no owner pages; and removes the federation after
// a confirmation that says who loses that way in. Every page passes
// axe-core and fits a desktop's and a phone's screen.
func TestDashboardPlatformOwner(t *testing.T) {
	needBrowser(t)
	axe := axeScript(t)
	t.Parallel()
	// The federation's provider listens on loopback, which the server
	// reaches only when allowed, as with webhooks.
	s := startServer(t, "--webhook-allow", "127.0.0.0/8,::1/128")
	upstream := oidctest.Start(t, oidctest.Client{ID: "feedback-federation", Secret: "federation-secret",
		Redirect: s.base + "/idp/federation/callback"})
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(1280, 800))
	b.do(chromedp.Navigate(s.base + "/auth/login?return_to=" + demoDashboard))
	embeddedLogin(b, demoEmail, s.password)
	b.waitFor("the dashboard", `document.getElementById("user-email")?.textContent === `+jsString(demoEmail), 60*time.Second)

	ownerCreatesWorkspace(t, b, axe)
	ownerSwitches(t, b, axe)
	fedID := ownerAddsFederation(t, b, axe, upstream)
	nonOwnerSeesNoOwnerPages(t, b, s, axe)
	ownerRemovesFederation(t, b, axe, fedID)
}

// embeddedLogin signs in at the embedded provider's login page.
func embeddedLogin(b *browser, email, password string) {
	b.t.Helper()
	b.waitFor("the embedded provider's login page", `document.getElementById("email") && document.getElementById("password")`, 30*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("email").value = ""`),
		chromedp.SendKeys(chromedp.ID("email"), email),
		chromedp.SendKeys(chromedp.ID("password"), password),
		chromedp.Click(chromedp.CSS(`form:not(.federation) button[type=submit]`)))
}

func ownerCreatesWorkspace(t *testing.T, b *browser, axe string) {
	b.do(chromedp.Click(chromedp.ID("nav-workspaces")))
	b.waitFor("the workspaces", `!!document.querySelector("#workspaces tr[data-workspace=demo]")`, 20*time.Second)
	pageShots(t, b, axe, "workspaces", "")

	// A taken slug is refused at its field, and nothing is made.
	b.do(chromedp.SendKeys(chromedp.ID("new-workspace-name"), "Another demo"),
		chromedp.SendKeys(chromedp.ID("new-workspace-slug"), "demo"),
		chromedp.Click(chromedp.ID("create-workspace")))
	b.waitFor("the slug's error", `document.getElementById("new-workspace-slug-error")?.textContent.includes("is taken")`, 10*time.Second)
	if !eval[bool](b, `document.getElementById("new-workspace-slug").getAttribute("aria-invalid") === "true"`) {
		t.Error("the taken slug's input is not marked invalid")
	}
	pageShots(t, b, axe, "workspaces-error", "new-workspace")

	clearField(b, "new-workspace-name")
	clearField(b, "new-workspace-slug")
	b.do(chromedp.SendKeys(chromedp.ID("new-workspace-name"), "Second Site"), chromedp.Click(chromedp.ID("create-workspace")))
	b.waitFor("the new workspace", `!!document.querySelector("#workspaces tr[data-workspace=second-site]") &&
		document.getElementById("workspaces-status").textContent.startsWith("Created the workspace Second Site")`, 10*time.Second)
}

// clearField empties the input id as a person would, so that the page
// hears of it.
func clearField(b *browser, id string) {
	b.do(chromedp.Evaluate[chromedp.Void](`(() => { const e = document.getElementById(` + jsString(id) + `);
		e.value = ""; e.dispatchEvent(new Event("input", {bubbles: true})) })()`))
}

// ownerSwitches opens the new workspace with the header's switcher,
// by keyboard.
func ownerSwitches(t *testing.T, b *browser, axe string) {
	b.waitFor("the switcher's new option", `!!document.querySelector("#workspace-select option[value=second-site]")`, 10*time.Second)
	b.do(chromedp.Focus(chromedp.ID("workspace-select")),
		chromedp.SetValue(chromedp.ID("workspace-select"), "second-site"),
		chromedp.Focus(chromedp.ID("workspace-open")),
		chromedp.KeyEvent("\r"))
	b.waitFor("the new workspace's empty overview", `location.pathname === "/w/second-site/" &&
		document.querySelector("#workspace-select option:checked")?.textContent === "Second Site" &&
		document.body.innerText.includes("No feedback yet.")`, 20*time.Second)
	if got := eval[string](b, `document.getElementById("workspace-select").value`); got != "second-site" {
		t.Errorf("the switcher shows %q on the new workspace", got)
	}
	if n := eval[int](b, `document.querySelector("header").innerText.split("Second Site").length - 1`); n != 1 {
		t.Errorf("the header names the workspace %d times, want once", n)
	}
	pageShots(t, b, axe, "workspace-switched", "")
}

// ownerAddsFederation adds the upstream provider as a federation of
// zitadel.ch, and returns its id.
func ownerAddsFederation(t *testing.T, b *browser, axe, upstream string) string {
	b.do(chromedp.Click(chromedp.ID("nav-federations")))
	b.waitFor("the empty list", `document.getElementById("federations-status")?.textContent.startsWith("No federation yet")`, 20*time.Second)
	pageShots(t, b, axe, "federations-empty", "")

	b.do(chromedp.SendKeys(chromedp.ID("fed-name"), "Zitadel"),
		chromedp.SendKeys(chromedp.ID("fed-issuer"), upstream),
		chromedp.SendKeys(chromedp.ID("fed-client-id"), "feedback-federation"),
		chromedp.SendKeys(chromedp.ID("fed-client-secret"), "federation-secret"),
		chromedp.SendKeys(chromedp.ID("fed-domains"), "zitadel.ch"),
		chromedp.Click(chromedp.ID("fed-trust-mfa")),
		chromedp.Click(chromedp.ID("add-federation")))
	b.waitFor("the federation added", `!!document.getElementById("new-federation-title")`, 20*time.Second)
	if got := eval[string](b, `document.querySelector("#new-federation .register dd").textContent`); got != originOf(b, "/idp/federation/callback") {
		t.Errorf("the redirect URI to register reads %q", got)
	}
	row := `document.querySelector("#federations tbody tr")`
	if got := eval[string](b, row+`.innerText`); !strings.Contains(got, "OpenID Connect") || !strings.Contains(got, upstream) ||
		!strings.Contains(got, "zitadel.ch") || !strings.Contains(got, "Yes") {
		t.Errorf("the federation's row reads %q", got)
	}
	listed := eval[string](b, `fetch("/api/v1/federations").then((r) => r.text())`)
	if strings.Contains(listed, "federation-secret") || !strings.Contains(listed, `"name":"Zitadel"`) {
		t.Errorf("GET /federations answers %s; want the federation without its secret", listed)
	}
	pageShots(t, b, axe, "federations", "new-federation")

	// The other kind's fields, and their errors at the fields.
	b.do(chromedp.Click(chromedp.ID("fed-kind-saml")))
	b.waitFor("the SAML fields", `!!document.getElementById("fed-metadata") && !document.getElementById("fed-issuer")`, 10*time.Second)
	b.do(chromedp.SendKeys(chromedp.ID("fed-name"), "Okta"), chromedp.SendKeys(chromedp.ID("fed-domains"), "okta.example"),
		chromedp.Click(chromedp.ID("add-federation")))
	b.waitFor("the metadata's error", `document.getElementById("fed-metadata-error")?.textContent === "The metadata needs the XML or its URL, one of them."`, 10*time.Second)
	pageShots(t, b, axe, "federations-saml-error", "new-federation-form")
	return eval[string](b, row+`.id.replace("federation-", "")`)
}

// originOf is the server's URL of path, as the page in b sees it.
func originOf(b *browser, path string) string { return eval[string](b, `location.origin`) + path }

// nonOwnerSeesNoOwnerPages has the owner invite someone of zitadel.ch,
// who signs in through the federation, joins, and finds no owner page.
func nonOwnerSeesNoOwnerPages(t *testing.T, b *browser, s *server, axe string) {
	link := eval[string](b, `fetch("/api/v1/invites", {method: "POST", headers: {"Content-Type": "application/json",
		"Feedback-Workspace": "demo"}, body: JSON.stringify({role: "admin"})}).then((r) => r.json()).then((j) => j.url)`)
	if !inviteLink.MatchString(link) {
		t.Fatalf("the invitation link reads %q", link)
	}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	g := &browser{t: t, ctx: ctx, workers: map[target.ID]context.Context{}}
	g.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(link))
	g.waitFor("the federation's button", `!!document.querySelector("form.federation button")`, 30*time.Second)
	g.do(chromedp.Click(chromedp.CSS(`form.federation button`)))
	g.waitFor("the federation's login page", `!!document.getElementById("op-username")`, 30*time.Second)
	g.do(chromedp.SendKeys(chromedp.ID("op-username"), opUser), chromedp.SendKeys(chromedp.ID("op-password"), opPassword),
		chromedp.Click(chromedp.CSS(`#op-login button[type=submit]`)))
	g.waitFor("the joined workspace", `document.getElementById("user-email")?.textContent === `+jsString(opEmail), 30*time.Second)
	if eval[int](g, `document.querySelectorAll("#nav-workspaces, #nav-federations, #workspace-switch").length`) != 0 {
		t.Error("a member who is no platform owner has links to the owner's pages, or a switcher with one workspace")
	}
	for _, page := range []string{"workspaces", "federations"} {
		g.do(chromedp.Navigate(s.base + "/settings/" + page))
		g.waitFor("the refusal", `document.querySelector("main p")?.textContent.startsWith("Only a platform owner")`, 30*time.Second)
		if eval[int](g, `document.querySelectorAll("main form, main table").length`) != 0 {
			t.Errorf("a member who is no platform owner sees a form or a list on /settings/%s", page)
		}
	}
	pageShots(t, g, axe, "federations-not-owner", "")
	if got := eval[int](g, `fetch("/api/v1/federations").then((r) => r.status)`); got != 403 {
		t.Errorf("GET /federations as a member answers %d, want 403", got)
	}
}

// ownerRemovesFederation removes the federation after the confirmation.
func ownerRemovesFederation(t *testing.T, b *browser, axe, id string) {
	b.do(chromedp.Navigate(originOf(b, "/settings/federations")))
	b.waitFor("the federation", `!!document.getElementById("remove-`+id+`")`, 30*time.Second)
	b.do(chromedp.Click(chromedp.ID("remove-" + id)))
	b.waitFor("the confirmation", `document.activeElement?.id === "confirm-remove-q"`, 10*time.Second)
	q := eval[string](b, `document.getElementById("confirm-remove-q").textContent`)
	if !strings.Contains(q, "People at zitadel.ch will no longer sign in through it") {
		t.Errorf("the confirmation asks %q", q)
	}
	pageShots(t, b, axe, "federations-confirm", "confirm-remove")
	b.do(chromedp.Click(chromedp.ID("confirm-remove-yes")))
	b.waitFor("the removal", `document.getElementById("federations-status").textContent.startsWith("Removed Zitadel.") &&
		!document.querySelector("#federations")`, 10*time.Second)
	if n := eval[int](b, `fetch("/api/v1/federations").then((r) => r.json()).then((j) => j.data.length)`); n != 0 {
		t.Errorf("after the removal the API lists %d federations", n)
	}
}

// TestDashboardSettingsNotFound: an unknown page of the settings answers
// 404 with a styled page that leads back; on an installation that signs
// in through an external provider, the federations page says, in the
// API's words, that there are none to manage, and offers no form.
func TestDashboardSettingsNotFound(t *testing.T) {
	s, b, axe := signedInAt(t, "", "the overview", `document.getElementById("user-email")?.textContent === `+jsString(opEmail))
	b.do(chromedp.Navigate(s.base + "/settings/no-such-page"))
	b.waitFor("the missing page", `document.querySelector("h1")?.textContent === "Page not found" &&
		!!document.querySelector("main a[href='/settings/security']")`, 30*time.Second)
	if got := eval[string](b, `document.title`); got != "Page not found · Feedback" {
		t.Errorf("the title reads %q", got)
	}
	pageShots(t, b, axe, "settings-not-found", "")

	b.do(chromedp.Click(chromedp.ID("nav-federations")))
	b.waitFor("the problem", `document.getElementById("federations-problem")?.textContent.includes("signs in through an external identity provider")`, 30*time.Second)
	if eval[int](b, `document.querySelectorAll("main form").length`) != 0 {
		t.Error("the federations page offers a form on an installation with an external provider")
	}
	pageShots(t, b, axe, "federations-external", "")
}
