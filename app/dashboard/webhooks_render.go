package dashboard

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page.
func (p *webhooksPage) Render() app.UI {
	write := canWrite(p.Workspace)
	return app.Section().Body(
		integrationsHead(p.Workspace, webhooksPath, "Webhooks"),
		app.P().Text("A webhook sends each event of the kinds it names to a URL of yours, as a signed POST (Standard Webhooks)."),
		app.If(!write, func() app.UI {
			return app.P().ID("webhooks-readonly").Class("readonly-note").Text("You can read the webhooks and their deliveries; an admin or a platform owner can change them.")
		}),
		app.P().ID("webhooks-status").Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("webhooks-problem", p.problem),
		slot(p.secret != nil, p.renderSecret),
		slot(p.loaded && len(p.items) > 0, p.renderList),
		slot(p.log.id != "", p.renderLog),
		app.If(write, p.renderCreate),
	)
}

func (p *webhooksPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.loaded && p.loading:
		return "Loading the webhooks…"
	case p.loaded && len(p.items) == 0:
		return "This workspace has no webhook yet."
	}
	return ""
}

// renderSecret shows a signing secret just made, once.
func (p *webhooksPage) renderSecret() app.UI {
	s := p.secret
	what := "Webhook created"
	if s.rotated {
		what = "Secret rotated"
	}
	return app.Div().ID("new-secret").Class("shown-once").Body(
		app.H2().ID("new-secret-title").TabIndex(-1).Text(what),
		app.P().Text("Deliveries to "+s.url+" are signed with this secret. Your receiver needs it to verify them."),
		app.If(s.rotated, func() app.UI {
			return app.P().Text("The previous secret keeps signing alongside it for 24 hours, so that the receiver can switch without losing a delivery.")
		}),
		app.P().Class("warning").Text("Copy the secret now: it will not be shown again."),
		app.Label().For("new-secret-value").Text("Signing secret"),
		app.Div().Class("copy-row").Body(
			app.Input().ID("new-secret-value").Type("text").ReadOnly(true).Value(s.value).
				Attr("autocomplete", "off").Attr("spellcheck", "false"),
			copyButton("new-secret-value", "Copy the signing secret", "new-secret-copied"),
		),
		app.P().ID("new-secret-copied").Role("status").Class("hint"),
		app.Button().ID("new-secret-done").Type("button").Class("inline").Text("I have copied it").
			OnClick(func(ctx app.Context, e app.Event) { p.secret = nil; focusLater(p.ui, "webhooks-status") }),
	)
}

func (p *webhooksPage) renderCreate() app.UI {
	b := app.Button().ID("webhook-create").Type("submit").Class("primary inline").Text("Create webhook")
	if p.busy {
		b = b.Disabled(true)
	}
	all := p.form.events[feedback.AllEvents]
	return app.Form().ID("webhook-form").Class("inline-form").OnSubmit(p.create).Body(
		app.H2().Text("Create a webhook"),
		app.Label().For("webhook-url").Text("URL"),
		app.P().ID("webhook-url-hint").Class("hint").Text("An https address that receives the events, for example https://hooks.example.com/feedback."),
		app.Input().ID("webhook-url").Type("url").Attr("autocomplete", "off").Aria("describedby", "webhook-url-hint").
			OnInput(func(ctx app.Context, e app.Event) { p.form.url = ctx.JSSrc().Get("value").String() }),
		app.FieldSet().Class("events").Body(
			app.Legend().Text("Events"),
			p.eventBox("event-all", feedback.AllEvents, "All events, including kinds added later", false),
			app.Range(feedback.EventKinds).Slice(func(i int) app.UI {
				k := feedback.EventKinds[i]
				return p.eventBox("event-"+strings.ReplaceAll(k, ".", "-"), k, k, all)
			}),
		),
		b,
	)
}

// eventBox is the checkbox of one event kind.
func (p *webhooksPage) eventBox(id, kind, label string, disabled bool) app.UI {
	in := app.Input().ID(id).Type("checkbox").Value(kind).Checked(p.form.events[kind]).
		OnChange(func(ctx app.Context, e app.Event) { p.form.events[kind] = ctx.JSSrc().Get("checked").Bool() }, app.EventScope(kind))
	if disabled {
		in = in.Disabled(true)
	}
	return app.Div().Class("check").Body(in, app.Label().For(id).Text(label))
}
