package dashboard

import (
	"context"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// deliveryLog is the delivery log of one subscription: its deliveries,
// newest first, each with every attempt. It is read again every
// pollEvery while a delivery is pending.
type deliveryLog struct {
	id, url string // the subscription; "" when no log is open
	items   []feedback.WebhookDelivery
	loaded  bool
	loading bool
	gen     int    // the reads started; a later read's answer wins
	busy    string // the id of the delivery being redelivered
	problem string
}

// pollEvery is how often an open log with a pending delivery is read.
const pollEvery = 1500 * time.Millisecond

// logPage is how many deliveries the log shows: the newest.
var logPage = feedback.ListParams{Page: 1, PerPage: 50}

// openLog shows the deliveries of w.
func (p *webhooksPage) openLog(w feedback.WebhookSubscription) {
	if p.log.id != w.ID {
		p.log = deliveryLog{id: w.ID, url: w.URL, gen: p.log.gen}
	}
	p.loadLog(0)
	focusLater(p.ui, "log-title")
}

// loadLog reads the open log after wait.
func (p *webhooksPage) loadLog(wait time.Duration) {
	l := &p.log
	l.gen++
	gen, id := l.gen, l.id
	l.loading = true
	p.async(func(c context.Context) func(app.Context) {
		select {
		case <-c.Done():
			return func(app.Context) {}
		case <-time.After(wait):
		}
		page, err := p.api.Deliveries(c, id, logPage)
		err = explain(err)
		return func(ctx app.Context) {
			if gen == p.log.gen && id == p.log.id {
				p.gotLog(page, err)
			}
		}
	})
}

func (p *webhooksPage) gotLog(page *feedback.Page[feedback.WebhookDelivery], err error) {
	l := &p.log
	l.loading = false
	switch {
	case p.Shell.gone(err):
		return
	case err != nil:
		l.problem = "The delivery log could not be loaded: " + err.Error()
		return
	}
	l.items, l.loaded, l.problem = page.Data, true, ""
	for _, d := range l.items {
		if d.Status == feedback.DeliveryPending {
			p.loadLog(pollEvery)
			return
		}
	}
}

// redeliver sends a delivery again.
func (p *webhooksPage) redeliver(d feedback.WebhookDelivery) {
	if p.log.busy != "" {
		return
	}
	p.log.busy, p.notice, p.log.problem = d.ID, "", ""
	p.async(func(c context.Context) func(app.Context) {
		_, err := p.api.Redeliver(c, d.WebhookID, d.ID)
		err = explain(err)
		return func(ctx app.Context) {
			p.log.busy = ""
			if p.Shell.refused(err, "The delivery was not sent again: ", func(msg string) {
				p.log.problem = msg
				focusLater(p.ui, "log-problem")
			}) {
				return
			}
			p.notice = "Sending the " + d.EventType + " event again."
			focusLater(p.ui, "webhooks-status")
			p.loadLog(0)
		}
	})
}

// renderLog is the open log.
func (p *webhooksPage) renderLog() app.UI {
	l := &p.log
	items := l.items
	status := ""
	switch {
	case !l.loaded && l.loading:
		status = "Loading the deliveries…"
	case l.loaded && len(items) == 0:
		status = "No delivery yet. Send a test event to see one here."
	}
	return app.Section().ID("delivery-log").Class("delivery-log").Aria("labelledby", "log-title").Body(
		app.H2().ID("log-title").TabIndex(-1).Text("Delivery log of "+l.url),
		app.Div().Class("actions").Body(
			app.Button().ID("log-reload").Type("button").Class("inline").Text("Reload the log").
				OnClick(func(ctx app.Context, e app.Event) { p.loadLog(0) }),
			app.Button().ID("log-close").Type("button").Class("inline").Text("Close the log").
				OnClick(func(ctx app.Context, e app.Event) { p.log = deliveryLog{gen: p.log.gen + 1} }),
		),
		app.P().ID("log-status").Role("status").Text(status),
		problemBox("log-problem", l.problem),
		app.Ol().ID("deliveries").Class("deliveries").Body(
			app.Range(items).Slice(func(i int) app.UI { return p.renderDelivery(items[i]) }),
		),
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
