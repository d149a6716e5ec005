package dashboard

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// renderLog is the open log.
func (p *webhooksPage) renderLog() app.UI {
	l := &p.log
	items := l.items
	status := ""
	switch {
	case !l.loaded && l.loading:
		status = "Loading the deliveries…"
	case l.loaded && l.meta.Total == 0:
		status = "No delivery yet. Send a test event to see one here."
	case l.loaded && len(items) > 0:
		status = pageRange("Deliveries", l.meta, len(items)) + ", newest first."
	}
	return app.Section().ID("delivery-log").Class("delivery-log").Aria("labelledby", "log-title").Body(
		app.H2().ID("log-title").TabIndex(-1).Text("Delivery log of "+l.url),
		app.Div().Class("actions").Body(
			app.Button().ID("log-reload").Type("button").Class("inline").Text("Reload the log").
				OnClick(func(ctx app.Context, e app.Event) { p.loadLog(0) }),
			app.Button().ID("log-close").Type("button").Class("inline").Text("Close the log").
				OnClick(func(ctx app.Context, e app.Event) { p.log = deliveryLog{gen: p.log.gen + 1} }),
		),
		app.P().ID("log-status").Role("status").TabIndex(-1).Text(status),
		problemBox("log-problem", l.problem),
		app.Ol().ID("deliveries").Class("deliveries").Body(
			app.Range(items).Slice(func(i int) app.UI { return p.renderDelivery(items[i]) }),
		),
		app.If(l.meta.Pages > 1, p.renderLogPages),
	)
}

// renderLogPages moves between the pages of the open log.
func (p *webhooksPage) renderLogPages() app.UI {
	m := p.log.meta
	turn := func(n int) {
		p.log.page = n
		p.loadLog(0)
		focusLater(p.ui, "log-status")
	}
	prev := disabledIf(app.Button().ID("log-newer").Type("button").Class("inline").Text("Newer"), m.Page <= 1 || p.log.loading).
		OnClick(func(ctx app.Context, e app.Event) { turn(m.Page - 1) })
	next := disabledIf(app.Button().ID("log-older").Type("button").Class("inline").Text("Older"), m.Page >= m.Pages || p.log.loading).
		OnClick(func(ctx app.Context, e app.Event) { turn(m.Page + 1) })
	return app.Nav().Class("pages").Aria("label", "Pages of the delivery log").Body(
		prev, app.Span().Text("Page "+thousands(m.Page)+" of "+thousands(m.Pages)), next,
	)
}

// statusWords says a delivery's state for people.
var statusWords = map[feedback.DeliveryStatus]string{
	feedback.DeliveryPending: "Pending", feedback.DeliverySucceeded: "Delivered", feedback.DeliveryFailed: "Failed",
}

func (p *webhooksPage) renderDelivery(d feedback.WebhookDelivery) app.UI {
	b := app.Button().Type("button").Class("inline").Text("Redeliver").
		Aria("label", "Redeliver the "+d.EventType+" event of "+d.CreatedAt.Time.Local().Format("15:04:05")).
		OnClick(func(ctx app.Context, e app.Event) { p.redeliver(d) }, app.EventScope(d.ID))
	if p.log.busy != "" {
		b = b.Disabled(true)
	}
	return app.Li().ID("delivery-"+d.ID).Class("delivery", "delivery-"+string(d.Status)).Body(
		app.P().Class("delivery-head").Body(
			app.Span().Class("delivery-status").Text(statusWords[d.Status]),
			app.Text(" · "), app.Span().Class("mono").Text(d.EventType),
			app.Text(" · created "), timeOf(d.CreatedAt.Time),
		),
		app.If(d.Status == feedback.DeliveryPending && d.NextAttemptAt != nil, func() app.UI {
			return app.P().Class("hint").Body(app.Text("Next attempt "), timeOf(d.NextAttemptAt.Time))
		}),
		app.If(len(d.AttemptLog) > 0, func() app.UI {
			return app.Ol().Class("attempts").Aria("label", "Attempts").Body(
				app.Range(d.AttemptLog).Slice(func(i int) app.UI { return renderAttempt(d.AttemptLog[i]) }),
			)
		}).Else(func() app.UI { return app.P().Class("hint").Text("No attempt yet.") }),
		app.If(canWrite(p.Workspace), func() app.UI { return b }),
	)
}

// renderAttempt is one HTTP request of a delivery: when, what the
// receiver answered, how long it took.
func renderAttempt(a feedback.DeliveryAttempt) app.UI {
	answer := "no answer"
	if a.StatusCode != 0 {
		answer = "HTTP " + strconv.Itoa(a.StatusCode)
	}
	text := "Attempt " + strconv.Itoa(a.N) + ": " + answer + " in " + strconv.Itoa(a.DurationMS) + " ms"
	if a.Error != "" {
		text += " — " + a.Error
	}
	return app.Li().Body(timeOf(a.At.Time), app.Text(" · "+text))
}
