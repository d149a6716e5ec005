package dashboard

import (
	"context"
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
	page    int           // the page shown, from 1
	meta    feedback.Meta // of the page shown
	loaded  bool
	loading bool
	gen     int    // the reads started; a later read's answer wins
	busy    string // the id of the delivery being redelivered
	problem string
}

// pollEvery is how often an open log with a pending delivery is read.
const pollEvery = 1500 * time.Millisecond

// logPerPage is how many deliveries a page of the log shows.
const logPerPage = 50

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
	lp := feedback.ListParams{Page: max(l.page, 1), PerPage: logPerPage}
	// A poll for pending deliveries (wait > 0) is no load the reader
	// waits for: the pages stay usable, and turning one supersedes it.
	l.loading = wait == 0
	p.async(func(c context.Context) func(app.Context) {
		select {
		case <-c.Done():
			return func(app.Context) {}
		case <-time.After(wait):
		}
		page, err := p.api.Deliveries(c, id, lp)
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
	l.items, l.meta, l.loaded, l.problem = page.Data, page.Meta, true, ""
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
