package dashboard

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// renderList is the subscriptions, each a card with its actions.
func (p *webhooksPage) renderList() app.UI {
	items := p.items
	return app.Section().Class("webhooks-list").Aria("labelledby", "webhooks-title").Body(
		app.H2().ID("webhooks-title").Text("Webhooks of this workspace"),
		app.Ul().ID("webhooks").Class("webhooks").Body(
			app.Range(items).Slice(func(i int) app.UI { return p.renderWebhook(items[i]) }),
		),
	)
}

func (p *webhooksPage) renderWebhook(w feedback.WebhookSubscription) app.UI {
	state := app.UI(app.Span().Class("state-on").Text("Enabled"))
	if w.DisabledAt != nil {
		state = app.Span().Class("state-off").Body(app.Text("Disabled "), timeOf(w.DisabledAt.Time), app.Text(": "+w.DisabledReason))
	}
	return app.Li().ID("webhook-"+w.ID).Class("webhook").Body(
		app.H3().Class("webhook-url").Text(w.URL),
		app.P().Body(app.Text("Events: "), app.Span().Class("mono").Text(strings.Join(w.Events, ", "))),
		app.P().Body(app.Text("State: "), state),
		app.P().Class("hint").Body(app.Text("Secret starts with "), app.Span().Class("mono").Text(w.SecretPrefix+"…"),
			app.Text(" · created "), timeOf(w.CreatedAt.Time)),
		p.renderWebhookActions(w),
	)
}

// renderWebhookActions are the buttons of a subscription, or the
// question before a rotation or a deletion. Viewers can only open the
// log.
func (p *webhooksPage) renderWebhookActions(w feedback.WebhookSubscription) app.UI {
	switch p.asking {
	case "delete:" + w.ID:
		return confirmBox("confirm-delete", "Delete the webhook to "+w.URL+"? No more events are sent to it, and its delivery log goes with it.",
			w.ID, "Delete webhook", func() { p.remove(w) }, func() { p.asking = ""; focusLater(p.ui, "webhooks-status") })
	case "rotate:" + w.ID:
		return confirmBox("confirm-rotate", "Give the webhook to "+w.URL+" a new secret? The old one keeps signing for 24 hours.",
			w.ID, "Rotate secret", func() { p.rotate(w) }, func() { p.asking = ""; focusLater(p.ui, "webhooks-status") })
	}
	on := w.DisabledAt == nil
	button := func(id, text, label string, click func(ctx app.Context)) app.UI {
		b := app.Button().ID(id+"-"+w.ID).Type("button").Class("inline").Text(text).Aria("label", label+" "+w.URL).
			OnClick(func(ctx app.Context, e app.Event) { click(ctx) }, app.EventScope(w.ID))
		if p.busy {
			b = b.Disabled(true)
		}
		return b
	}
	actions := []app.UI{button("log", "Delivery log", "Show the delivery log of", func(app.Context) { p.openLog(w) })}
	if canWrite(p.Workspace) {
		toggle := button("enable", "Enable", "Enable", func(app.Context) { p.setEnabled(w, true) })
		if on {
			toggle = button("disable", "Disable", "Disable", func(app.Context) { p.setEnabled(w, false) })
		}
		if on {
			actions = append(actions, button("test", "Send test event", "Send a test event to", func(app.Context) { p.ping(w) }))
		}
		actions = append(actions, toggle,
			button("rotate", "Rotate secret", "Rotate the secret of", func(app.Context) { p.ask("rotate", w) }),
			button("delete", "Delete", "Delete the webhook to", func(app.Context) { p.ask("delete", w) }),
		)
	}
	return app.Div().Class("actions").Body(actions...)
}
