package dashboard

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// renderForm is the form of a new rule or of the rule edited: the fields
// of its kind, each with the reason it was refused.
func (p *alertRulesPage) renderForm() app.UI {
	f := p.form
	heading, save := "New rule", "Create rule"
	if f.id != "" {
		heading, save = "Edit the rule “"+f.name+"”", "Save rule"
	}
	set := func(apply func(f *ruleForm, v string)) func(ctx app.Context, v string) {
		return func(ctx app.Context, v string) { p.edited(ctx, func(f *ruleForm) { apply(f, v) }) }
	}
	return app.Form().ID("rule-form").Class("inline-form", "rule-form").OnSubmit(p.save).Body(
		app.H2().ID("rule-form-title").Text(heading),
		p.input("rule-name", "name", "Name", "What the rule watches, for the alert and its email.", "text", f.name, set(func(f *ruleForm, v string) { f.name = v })),
		p.renderKind(),
		p.renderLocation(),
		slot(f.uses("count"), func() app.UI {
			return p.input("rule-count", "count", countLabel(f.kind), "", "number", f.count, set(func(f *ruleForm, v string) { f.count = v }))
		}),
		slot(f.uses("rating"), func() app.UI {
			return p.input("rule-rating", "rating", "Rating X or less (1 to 4)", "", "number", f.rating, set(func(f *ruleForm, v string) { f.rating = v }))
		}),
		slot(f.uses("average"), func() app.UI {
			return p.input("rule-average", "average", "Average below X (1 to 5)", "For example 2.5.", "text", f.average, set(func(f *ruleForm, v string) { f.average = v }))
		}),
		slot(f.uses("tag"), func() app.UI {
			return p.input("rule-tag", "tag", "Tag", "As visitors choose it on the hygiene form.", "text", f.tag, set(func(f *ruleForm, v string) { f.tag = v }))
		}),
		p.input("rule-window", "window_minutes", "Window W, in minutes", "", "number", f.window, set(func(f *ruleForm, v string) { f.window = v })),
		p.input("rule-cooldown", "cooldown_minutes", "Cool-down, in minutes", "After an alert is resolved, no new alert of this rule at the same place for this long.",
			"number", f.cooldown, set(func(f *ruleForm, v string) { f.cooldown = v })),
		p.renderEmails(),
		p.renderEnabled(),
		app.Div().Class("actions").Body(
			disabledIf(app.Button().ID("rule-save").Type("submit").Class("primary").Text(save), p.busy),
			app.Button().ID("rule-cancel").Type("button").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) { p.close(); focusLater(ctx, "rules-status") }),
		),
	)
}

// countLabel is the label of N for a kind.
func countLabel(kind string) string {
	if kind == feedback.RuleAverageBelow {
		return "Minimum number of ratings"
	}
	if kind == feedback.RuleTagReported {
		return "Times reported N"
	}
	return "Number of ratings N"
}

// input is a labelled input of field name, with the reason it was
// refused tied to it for screen readers.
func (p *alertRulesPage) input(id, name, label, hint, typ, value string, set func(ctx app.Context, v string)) app.UI {
	in := app.Input().ID(id).Type(typ).Value(value).Attr("autocomplete", "off").
		OnInput(func(ctx app.Context, e app.Event) { set(ctx, ctx.JSSrc().Get("value").String()) })
	if typ == "number" {
		in = in.Attr("inputmode", "numeric").Attr("min", "0")
	}
	return p.described(in, id, name, label, hint)
}

// described wraps the control in of field name in its label, hint and
// reason.
func (p *alertRulesPage) described(in app.HTMLInput, id, name, label, hint string) app.UI {
	reason := p.form.errs[name]
	var ids []string
	if hint != "" {
		ids = append(ids, id+"-hint")
	}
	if reason != "" {
		in = in.Aria("invalid", "true")
		ids = append(ids, id+"-error")
	}
	if len(ids) > 0 {
		in = in.Aria("describedby", strings.Join(ids, " "))
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.If(hint != "", func() app.UI { return app.P().ID(id + "-hint").Class("hint").Text(hint) }),
		in,
		app.If(reason != "", func() app.UI { return app.P().ID(id + "-error").Class("field-error").Text(label + " " + reason + ".") }),
	)
}

// renderKind chooses the kind of a new rule; a rule's kind cannot change.
func (p *alertRulesPage) renderKind() app.UI {
	f := p.form
	if f.id != "" {
		return app.P().ID("rule-kind").Text("Kind: " + ruleKindNames[f.kind] + " (it cannot change). " + ruleKindHints[f.kind])
	}
	var opts []app.UI
	for _, k := range feedback.RuleKinds {
		opts = append(opts, option(k, ruleKindNames[k], f.kind == k))
	}
	return app.Div().Class("field").Body(
		app.Label().For("rule-kind").Text("Kind"),
		app.P().ID("rule-kind-hint").Class("hint").Text(ruleKindHints[f.kind]),
		app.Select().ID("rule-kind").Aria("describedby", "rule-kind-hint").Body(opts...).OnChange(func(ctx app.Context, e app.Event) {
			v := ctx.JSSrc().Get("value").String()
			p.edited(ctx, func(f *ruleForm) { f.kind = v })
		}),
		p.reason("rule-kind", "kind", "Kind"),
	)
}

// renderLocation chooses every location or one.
func (p *alertRulesPage) renderLocation() app.UI {
	f := p.form
	opts := []app.UI{option("", "Every location", f.location == "")}
	for _, l := range p.locs {
		opts = append(opts, option(l.ID, l.Name, f.location == l.ID))
	}
	return app.Div().Class("field").Body(
		app.Label().For("rule-location").Text("Location"),
		app.Select().ID("rule-location").Body(opts...).OnChange(func(ctx app.Context, e app.Event) {
			v := ctx.JSSrc().Get("value").String()
			if v == anyValue {
				v = ""
			}
			p.edited(ctx, func(f *ruleForm) { f.location = v })
		}),
		p.reason("rule-location", "location_id", "Location"),
	)
}

// renderEmails are the addresses notified of each alert.
func (p *alertRulesPage) renderEmails() app.UI {
	const id = "rule-emails"
	reason := p.form.errs["emails"]
	ta := app.Textarea().ID(id).Rows(3).Aria("describedby", id+"-hint").Body(app.Text(p.form.emails)).
		OnInput(func(ctx app.Context, e app.Event) {
			v := ctx.JSSrc().Get("value").String()
			p.edited(ctx, func(f *ruleForm) { f.emails = v })
		})
	if reason != "" {
		ta = ta.Aria("invalid", "true").Aria("describedby", id+"-hint "+id+"-error")
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text("Emails"),
		app.P().ID(id+"-hint").Class("hint").Text("Who gets an email with a link to each alert: addresses separated by commas or lines, at most 20. Leave it empty for none."),
		ta,
		p.reason(id, "emails", "Emails"),
	)
}

// renderEnabled says whether the rule raises alerts.
func (p *alertRulesPage) renderEnabled() app.UI {
	in := app.Input().ID("rule-enabled").Type("checkbox").OnChange(func(ctx app.Context, e app.Event) {
		on := ctx.JSSrc().Get("checked").Bool()
		p.edited(ctx, func(f *ruleForm) { f.enabled = on })
	})
	if p.form.enabled {
		in = in.Checked(true)
	}
	return app.Div().Class("check").Body(in, app.Label().For("rule-enabled").Text("Enabled: the rule raises alerts"))
}

// reason is the service's reason for the field name, if any.
func (p *alertRulesPage) reason(id, name, label string) app.UI {
	r := p.form.errs[name]
	return app.If(r != "", func() app.UI { return app.P().ID(id + "-error").Class("field-error").Text(label + " " + r + ".") })
}
