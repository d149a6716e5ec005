package e2e_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// The test provider's second user, who has no account in feedbackd
// until they accept an invitation.
const (
	opUser2  = "test-user2"
	opEmail2 = "test-user2@zitadel.ch"
)

// membersJS asks the API, as the signed-in browser, for the demo
// workspace's members as "email role" lines.
const membersJS = `fetch("/api/v1/members", {headers: {"Feedback-Workspace": "demo"}}).then((r) => r.json()).
	then((j) => j.data.map((m) => m.email + " " + m.role).join("\n"))`

var inviteLink = regexp.MustCompile(`^http://[^/]+/auth/invite/fbi_[0-9A-Za-z]{40}$`)

// TestDashboardPeople manages the members of a workspace as its platform
// owner would in the dashboard: makes an invitation link and copies it
// from the page; a second user opens it, signs in and joins as a viewer,
// who may not manage members; the owner makes them an admin, then
// removes them, each after a confirmation, and the API agrees; the audit
// log lists what happened. Each page passes axe-core and fits a
// desktop's and a phone's screen.
func TestDashboardPeople(t *testing.T) {
	s, b, axe := signedInAt(t, "people", "the empty list",
		`document.getElementById("sessions-status")?.textContent.startsWith("No member yet")`)

	b.do(chromedp.Click(chromedp.ID("create-invite")))
	b.waitFor("the invitation link", `!!document.getElementById("invite-link")?.value`, 10*time.Second)
	link := eval[string](b, `document.getElementById("invite-link").value`)
	if !inviteLink.MatchString(link) {
		t.Fatalf("the invitation link reads %q", link)
	}
	if e := eval[string](b, `document.getElementById("invite-expiry").textContent`); !strings.Contains(e, "(7 days from now)") {
		t.Errorf("the link's expiry reads %q, want 7 days from now", e)
	}
	b.do(chromedp.Click(chromedp.ID("copy-invite")))
	b.waitFor("the copy's status", `document.getElementById("copy-status").textContent !== ""`, 10*time.Second)
	pageShots(t, b, axe, "people-invite", "new-invite")

	// The second user joins through the link, as a viewer, who may not
	// manage members.
	guest := acceptInvite(t, b, link)
	guest.do(chromedp.Navigate(s.base + demoDashboard + "people"))
	guest.waitFor("the refusal", `document.getElementById("sessions-status")?.textContent.startsWith("Only a platform owner")`, 60*time.Second)
	if eval[int](guest, `document.querySelectorAll("#members, #create-invite").length`) != 0 {
		t.Error("a viewer sees the members or the invitation form")
	}
	pageShots(t, guest, axe, "people-viewer", "")

	// The owner makes them an admin, then removes them.
	b.do(chromedp.Navigate(s.base + demoDashboard + "people"))
	row := `document.querySelector("#members tbody tr")`
	b.waitFor("the new member", row+`?.innerText.includes(`+jsString(opEmail2)+`)`, 60*time.Second)
	if got := eval[string](b, row+`.querySelector(".role").textContent`); got != "Viewer" {
		t.Errorf("the new member's role reads %q, want Viewer", got)
	}
	pageShots(t, b, axe, "people", "members-title")
	b.do(chromedp.Evaluate[chromedp.Void](row + `.querySelector("button.change-role").click()`))
	b.waitFor("the confirmation", `!!document.getElementById("confirm-member-yes")`, 10*time.Second)
	if got := eval[string](b, `document.getElementById("confirm-member-title").textContent`); got != "Make "+opEmail2+" an admin?" {
		t.Errorf("the confirmation asks %q", got)
	}
	b.do(chromedp.Click(chromedp.ID("confirm-member-yes")))
	b.waitFor("the new role", row+`?.querySelector(".role").textContent === "Admin"`, 10*time.Second)
	if got := eval[string](b, membersJS); got != opEmail2+" admin" {
		t.Errorf("the API lists the members as %q, want the guest as admin", got)
	}

	b.do(chromedp.Evaluate[chromedp.Void](row + `.querySelector("button.remove").click()`))
	b.waitFor("the confirmation", `!!document.getElementById("confirm-member-yes")`, 10*time.Second)
	pageShots(t, b, axe, "people-confirm", "confirm-member")
	b.do(chromedp.Click(chromedp.ID("confirm-member-no")))
	b.waitFor("the confirmation gone", `!document.getElementById("confirm-member")`, 10*time.Second)
	if got := eval[string](b, membersJS); got != opEmail2+" admin" {
		t.Errorf("after Cancel the API lists the members as %q", got)
	}
	b.do(chromedp.Evaluate[chromedp.Void](row + `.querySelector("button.remove").click()`))
	b.waitFor("the confirmation", `!!document.getElementById("confirm-member-yes")`, 10*time.Second)
	b.do(chromedp.Click(chromedp.ID("confirm-member-yes")))
	b.waitFor("the member gone", `!`+row+` && document.getElementById("sessions-status").textContent.startsWith("Removed ")`, 10*time.Second)
	if got := eval[string](b, membersJS); got != "" {
		t.Errorf("after the removal the API lists the members as %q", got)
	}
	if n := eval[int](guest, `fetch("/api/v1/me").then((r) => r.json()).then((j) => j.workspaces.length)`); n != 0 {
		t.Errorf("the removed member still has %d workspaces", n)
	}

	// Five more links, for a second page of the audit log.
	for range 5 {
		b.do(chromedp.Click(chromedp.ID("create-invite")))
		b.waitFor("another link", `!!document.getElementById("invite-link") && document.getElementById("invite-link").value !== `+jsString(link), 10*time.Second)
		link = eval[string](b, `document.getElementById("invite-link").value`)
	}

	// The audit log tells what happened, newest first.
	b.do(chromedp.Click(chromedp.ID("nav-audit")))
	b.waitFor("the audit log", `document.querySelectorAll("#audit tbody tr").length > 0`, 20*time.Second)
	actions := `[...document.querySelectorAll("#audit tbody tr")].map((r) => r.dataset.action).join(" ")`
	got := eval[string](b, actions)
	want := strings.Repeat("member.invited ", 5) + "member.removed member.role_changed member.joined session.signed_in member.invited session.signed_in"
	if got != want {
		t.Errorf("the audit log lists %q, want %q", got, want)
	}
	what := eval[string](b, `document.querySelector("#audit tbody tr[data-action='member.role_changed'] .audit-what").textContent`)
	if what != "Made "+opEmail2+" an admin" {
		t.Errorf("the role change reads %q", what)
	}
	pageShots(t, b, axe, "audit", "")

	// Ten events a page: the oldest, the owner's sign-in, on the second.
	b.do(chromedp.SetValue(chromedp.ID("audit-per-page"), "10"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("audit-per-page").dispatchEvent(new Event("change"))`),
		chromedp.Click(chromedp.ID("audit-apply")))
	b.waitFor("the first page", `document.getElementById("sessions-status").textContent === "Events 1 to 10 of 11."`, 10*time.Second)
	b.do(chromedp.Click(chromedp.ID("audit-older")))
	b.waitFor("the second page", `document.getElementById("sessions-status").textContent === "Events 11 to 11 of 11."`, 10*time.Second)
	if got := eval[string](b, actions); got != "session.signed_in" {
		t.Errorf("the second page lists %q, want the owner's sign-in", got)
	}
	if !eval[bool](b, `!document.getElementById("audit-older") && !!document.getElementById("audit-newer")`) {
		t.Error("the last page offers older events, or no newer ones")
	}
	pageShots(t, b, axe, "audit-page-2", "audit-title")

	// Events of tomorrow on: none.
	tomorrow := time.Now().AddDate(0, 0, 1).Format("2006-01-02")
	b.do(chromedp.SetValue(chromedp.ID("audit-from"), tomorrow),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("audit-from").dispatchEvent(new Event("change"))`),
		chromedp.Click(chromedp.ID("audit-apply")))
	b.waitFor("no event", `document.getElementById("sessions-status").textContent === "No event in these days." && !document.getElementById("audit")`, 10*time.Second)
}

// acceptInvite opens the invitation link in a browser context of its
// own, signs the provider's second user in there, and waits until they
// joined: the page says so, or the dashboard opened after it. It returns that context's tab.
func acceptInvite(t *testing.T, b *browser, link string) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	g := &browser{t: t, ctx: ctx, workers: map[target.ID]context.Context{}}
	g.do(chromedp.Navigate(link))
	g.waitFor("the provider's login page", `document.getElementById("op-username")`, 30*time.Second)
	g.do(chromedp.SendKeys(chromedp.ID("op-username"), opUser2),
		chromedp.SendKeys(chromedp.ID("op-password"), opPassword),
		chromedp.Click(chromedp.CSS(`#op-login button[type=submit]`)))
	// The page that says "You joined" goes on to the dashboard by itself:
	// wait for the dashboard, so that the test's next navigation is not
	// overtaken by that one.
	g.waitFor("the joined workspace", `document.getElementById("user-email")?.textContent === `+jsString(opEmail2), 30*time.Second)
	return g
}
