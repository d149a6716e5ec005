package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The actions on one subscription. Each runs one request, then shows
// what it did and reads the list (and the log) again.

// update sends a PATCH and says what it did.
func (p *webhooksPage) update(w feedback.WebhookSubscription, in feedback.WebhookUpdate, done string, after func(app.Context)) {
	if p.busy {
		return
	}
	p.busy, p.asking, p.notice, p.problem = true, "", "", ""
	p.async(func(c context.Context) func(app.Context) {
		_, err := p.api.UpdateWebhook(c, w.ID, in)
		err = explainFields(err)
		return func(ctx app.Context) {
			p.busy = false
			if p.failed(err, "The webhook was not changed: ") {
				return
			}
			p.notice = done
			if after != nil {
				after(ctx)
			} else {
				focusLater(p.ui, "webhooks-status")
			}
			p.load()
		}
	})
}

// setEnabled enables or disables a subscription.
func (p *webhooksPage) setEnabled(w feedback.WebhookSubscription, on bool) {
	done := "Disabled the webhook to " + w.URL + ": no deliveries are made until it is enabled."
	if on {
		done = "Enabled the webhook to " + w.URL + "."
	}
	p.update(w, feedback.WebhookUpdate{Enabled: &on}, done, nil)
}

// rotate gives a subscription a new secret, made here and shown once.
func (p *webhooksPage) rotate(w feedback.WebhookSubscription) {
	s := newSecret()
	p.update(w, feedback.WebhookUpdate{Secret: &s}, "Rotated the secret of the webhook to "+w.URL+".", func(ctx app.Context) {
		p.secret = &shownSecret{url: w.URL, value: s, rotated: true}
		focusLater(p.ui, "new-secret-title")
	})
}

// remove deletes a subscription.
func (p *webhooksPage) remove(w feedback.WebhookSubscription) {
	if p.busy {
		return
	}
	p.busy, p.asking, p.notice, p.problem = true, "", "", ""
	p.async(func(c context.Context) func(app.Context) {
		err := explain(p.api.DeleteWebhook(c, w.ID))
		return func(ctx app.Context) {
			p.busy = false
			if p.failed(err, "The webhook was not deleted: ") {
				return
			}
			if p.log.id == w.ID {
				p.log = deliveryLog{}
			}
			p.notice = "Deleted the webhook to " + w.URL + "."
			focusLater(p.ui, "webhooks-status")
			p.load()
		}
	})
}

// ping sends a test event, then shows the subscription's log, which
// follows the delivery.
func (p *webhooksPage) ping(w feedback.WebhookSubscription) {
	if p.busy {
		return
	}
	p.busy, p.notice, p.problem = true, "", ""
	p.async(func(c context.Context) func(app.Context) {
		_, err := p.api.TestWebhook(c, w.ID)
		err = explain(err)
		return func(ctx app.Context) {
			p.busy = false
			if p.failed(err, "The test event was not sent: ") {
				return
			}
			p.notice = "Sent a test event to " + w.URL + ". Its delivery shows in the log below."
			focusLater(p.ui, "webhooks-status")
			p.openLog(w)
		}
	})
}

// ask opens the confirmation of action ("delete" or "rotate") on w.
func (p *webhooksPage) ask(action string, w feedback.WebhookSubscription) {
	p.asking, p.notice = action+":"+w.ID, ""
	focusLater(p.ui, "confirm-"+action+"-q")
}
