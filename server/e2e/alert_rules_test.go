package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// alertRulesPath is the rules page below a workspace's dashboard.
const alertRulesPath = "alerts/rules"

// allPages asks a list for its first page, as long as it can be.
var allPages = feedback.ListParams{Page: 1, PerPage: feedback.MaxPerPage}

// rulesLoaded is true once the rules page has read the rules.
const rulesLoaded = `!/Loading/.test(document.getElementById("rules-status")?.textContent ?? "Loading")`

// TestAlertRulesEditor drives the rules editor with the keyboard and the
// mouse: a rule with mistakes is refused at its fields in words, and
// nothing is stored; corrected, it is created; then edited, disabled
// and deleted after a confirmation; a form with changes asks before a
// link leaves it. The form and the list pass axe-core at a desktop's and
// a phone's size.
func TestAlertRulesEditor(t *testing.T) {
	s, b, axe := signedInAt(t, alertRulesPath, "the rules page", rulesLoaded+` && !!document.getElementById("rule-new")`)
	b.do(chromedp.Click(chromedp.ID("rule-new")))
	b.waitFor("the form", `document.activeElement?.id === "rule-name"`, 10*time.Second)
	b.do(retype("rule-count", "0"),
		chromedp.SendKeys(chromedp.ID("rule-emails"), "facilities@example.com, not-an-address"),
		chromedp.Click(chromedp.ID("rule-save")))
	b.waitFor("the fields' reasons", `!!document.getElementById("rule-name-error") && !!document.getElementById("rule-count-error") && !!document.getElementById("rule-emails-error")`, 10*time.Second)
	for id, want := range map[string]string{
		"rule-name-error":   "Name is required",
		"rule-count-error":  "must be a whole number from 1 to 1,000",
		"rule-emails-error": "must be email addresses",
	} {
		if got := eval[string](b, `document.getElementById("`+id+`").textContent`); !strings.Contains(got, want) {
			t.Errorf("#%s says %q, want %q", id, got, want)
		}
	}
	if eval[string](b, `document.getElementById("rule-count").getAttribute("aria-invalid")`) != "true" {
		t.Error("the refused count is not marked invalid")
	}
	pageShots(t, b, axe, "alert-rule-form", "rule-form")
	if page, err := s.api.AlertRules(t.Context(), allPages); err != nil || len(page.Data) != 0 {
		t.Fatalf("after the refusal the workspace has rules %v (%v), want none", page, err)
	}

	b.do(chromedp.Focus(chromedp.ID("rule-name")), chromedp.SendKeys(chromedp.ID("rule-name"), "Dirty washrooms"),
		retype("rule-count", "3"),
		retype("rule-emails", "facilities@example.com"),
		chromedp.Focus(chromedp.ID("rule-save")), chromedp.KeyEvent(kb.Enter))
	b.waitFor("the rule in the list", `document.querySelectorAll("#rules li.rule").length === 1`, 10*time.Second)
	page, err := s.api.AlertRules(t.Context(), allPages)
	if err != nil || len(page.Data) != 1 {
		t.Fatalf("the workspace has rules %v (%v), want one", page, err)
	}
	r := page.Data[0]
	if r.Name != "Dirty washrooms" || r.Count != 3 || r.Rating != 2 || r.WindowMinutes != 10 || len(r.Emails) != 1 || !r.Enabled {
		t.Errorf("stored %+v, want 3 ratings of 2 or less within 10 minutes, one email, enabled", r)
	}
	if text := eval[string](b, `document.getElementById("rule-`+r.ID+`").innerText`); !strings.Contains(text, "3 ratings of 2 or less within 10 minutes") {
		t.Errorf("the rule reads %q", text)
	}

	b.do(chromedp.Click(chromedp.ID("rule-edit-" + r.ID)))
	b.waitFor("the edit form", `document.getElementById("rule-window")?.value === "10"`, 10*time.Second)
	b.do(retype("rule-window", "15"),
		chromedp.Click(chromedp.ID("rule-save")))
	b.waitFor("the rule changed", `/within 15 minutes/.test(document.getElementById("rule-`+r.ID+`")?.innerText)`, 10*time.Second)

	b.do(chromedp.Click(chromedp.ID("rule-disable-" + r.ID)))
	b.waitFor("the rule disabled", `!!document.getElementById("rule-enable-`+r.ID+`")`, 10*time.Second)
	pageShots(t, b, axe, "alert-rules", "")

	b.do(chromedp.Click(chromedp.ID("rule-delete-" + r.ID)))
	b.waitFor("the question", `document.activeElement?.id === "confirm-delete-q"`, 10*time.Second)
	b.do(chromedp.Click(chromedp.ID("confirm-delete-yes")))
	b.waitFor("the rule gone", `document.querySelectorAll("#rules li.rule").length === 0 && /Deleted the rule/.test(document.getElementById("rules-status").textContent)`, 10*time.Second)

	// A form with changes holds the page: a link asks first.
	b.do(chromedp.Click(chromedp.ID("rule-new")))
	b.waitFor("the form", `document.activeElement?.id === "rule-name"`, 10*time.Second)
	b.do(chromedp.SendKeys(chromedp.ID("rule-name"), "Not saved"), chromedp.Click(chromedp.ID("nav-overview")))
	b.waitFor("the question before leaving", `document.activeElement?.id === "confirm-leave-q"`, 10*time.Second)
	if loc := eval[string](b, `location.pathname`); loc != demoDashboard+alertRulesPath {
		t.Errorf("the link left for %s before the question was answered", loc)
	}
	b.do(chromedp.Click(chromedp.ID("confirm-leave-yes")))
	b.waitFor("the overview", `location.pathname === `+jsString(demoDashboard), 10*time.Second)
}

// retype empties the input id and types text into it, as a person
// would (the page hears each key).
func retype(id, text string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if _, err := chromedp.Evaluate[chromedp.Void](`document.getElementById(`+jsString(id)+`).value = ""`)(ctx, t); err != nil {
			return chromedp.Void{}, err
		}
		return chromedp.SendKeys(chromedp.ID(id), text)(ctx, t)
	}
}
