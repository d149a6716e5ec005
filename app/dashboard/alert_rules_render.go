package dashboard

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: the rules, then the form.
func (p *alertRulesPage) Render() app.UI {
	return app.Section().Class("alert-rules").Body(
		alertsHead(p.Workspace, alertRulesPath, "Alert rules"),
		app.P().Text("A rule raises an alert when what visitors report crosses its threshold at a location, once per incident: after an alert is resolved, the rule waits for its cool-down before it raises another there."),
		writeOr(p.Workspace, "rules-readonly", "You can read the rules; an admin or a platform owner can change them.", func() app.UI {
			return disabledIf(app.Button().ID("rule-new").Type("button").Class("primary", "inline").Text("New rule"), p.form != nil && p.form.id == "").
				OnClick(func(ctx app.Context, e app.Event) { p.open(ctx, newRuleForm()) })
		}),
		app.P().ID("rules-status").Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("rules-problem", p.problem),
		slot(p.leaveTo != "", p.renderLeave),
		slot(p.form != nil, p.renderForm),
		slot(p.loaded && len(p.rules) > 0, p.renderRules),
	)
}

func (p *alertRulesPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.loaded:
		return "Loading the rules…"
	case len(p.rules) == 0:
		return "This workspace has no alert rule yet."
	}
	return plural(len(p.rules), "rule", "rules") + "."
}

// renderLeave asks before a link leaves a form with changes.
func (p *alertRulesPage) renderLeave() app.UI {
	return confirmBox("confirm-leave", "Leave this page? The changes to the rule are not saved.", "leave", "Leave without saving",
		func() {
			to := p.leaveTo
			p.close()
			p.ui.Navigate(to)
		},
		func() { p.leaveTo = ""; focusLater(p.ui, "rule-name") })
}

// renderRules is the rules, each with its buttons.
func (p *alertRulesPage) renderRules() app.UI {
	items := p.rules
	return app.Ul().ID("rules").Class("cards", "rules").Body(
		app.Range(items).Slice(func(i int) app.UI { return p.renderRule(items[i]) }),
	)
}

func (p *alertRulesPage) renderRule(r feedback.AlertRule) app.UI {
	where := "Every location"
	if r.LocationID != nil {
		c := catalog{locs: p.locs}
		where = c.locationName(*r.LocationID)
	}
	state := app.Span().Class("state-on").Text("Enabled")
	if !r.Enabled {
		state = app.Span().Class("state-off").Text("Disabled")
	}
	emails := "nobody"
	if len(r.Emails) > 0 {
		emails = strings.Join(r.Emails, ", ")
	}
	return app.Li().ID("rule-"+r.ID).Class("card", "rule").Body(
		app.H3().Text(r.Name),
		app.P().Text(ruleText(r)+" · "+where),
		app.P().Class("hint").Text("Cool-down "+plural(r.CooldownMinutes, "minute", "minutes")+" · emails "+emails),
		app.P().Body(app.Text("State: "), state),
		writeOnly(p.Workspace, func() app.UI { return p.renderRuleActions(r) }),
	)
}

// renderRuleActions are the buttons of rule r, or the question before
// its deletion.
func (p *alertRulesPage) renderRuleActions(r feedback.AlertRule) app.UI {
	if p.asking == r.ID {
		return confirmBox("confirm-delete", "Delete the rule “"+r.Name+"”? It raises no more alerts; the alerts it raised stay in the history.",
			r.ID, "Delete rule", func() { p.remove(p.ui, r) }, func() { p.asking = ""; focusLater(p.ui, "rules-status") })
	}
	button := func(id, text string, click func(ctx app.Context)) app.UI {
		return disabledIf(app.Button().ID(id+"-"+r.ID).Type("button").Class("inline").Text(text).Aria("label", text+" the rule "+r.Name), p.busy).
			OnClick(func(ctx app.Context, e app.Event) { click(ctx) }, app.EventScope(r.ID))
	}
	toggle := button("rule-enable", "Enable", func(ctx app.Context) { p.setEnabled(ctx, r, true) })
	if r.Enabled {
		toggle = button("rule-disable", "Disable", func(ctx app.Context) { p.setEnabled(ctx, r, false) })
	}
	return app.Div().Class("actions").Body(
		button("rule-edit", "Edit", func(ctx app.Context) { p.open(ctx, editRuleForm(r)) }),
		toggle,
		button("rule-delete", "Delete", func(ctx app.Context) {
			p.asking, p.notice = r.ID, ""
			focusLater(p.ui, "confirm-delete-q") // the button goes: the page's context

		}),
	)
}
