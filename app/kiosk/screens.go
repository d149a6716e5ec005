package kiosk

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/app/visitor"
	"github.com/feedbackhq/feedback/shared/i18n"
)

// renderAttract invites the next visitor: the whole screen is one button.
func (k *Page) renderAttract() app.UI {
	return app.Main().Class("kiosk-screen attract").Body(
		app.P().Class("place").Text(k.settings.Form.LocationName),
		app.Button().ID("kiosk-start").Type("button").Class("primary huge").Text(k.t("kiosk_start")).OnClick(k.start),
		k.languages(),
	)
}

// renderForm shows the location's form; a valid submission goes to the
// device's queue, never straight to the network. Every event of the form
// also updates the kiosk, and go-app then copies the exported fields of
// the form rendered here into the mounted one: the values and errors of
// the mounted form are handed back, or each tap would erase them.
func (k *Page) renderForm() app.UI {
	f := &visitor.Page{Kiosk: true, Lang: k.lang(), ID: k.formID, View: &k.settings.Form, Submitted: k.submitted}
	if k.form != nil && k.form.ID == k.formID {
		f.Values, f.Errors = k.form.Values, k.form.Errors
	} else {
		k.form = f // a new id mounts a new form (visitor.Page.CompoID)
	}
	return app.Div().Class("kiosk-form").Body(k.languages(), f)
}

// submitted queues a submission and thanks the visitor. Presses closer
// than the kiosk's interval to the previous submission are ignored. It runs inside
// an event handler, so the store is written from a goroutine (IndexedDB
// answers through a callback that could not run otherwise).
func (k *Page) submitted(id string, body []byte) {
	now := time.Now()
	if _, _, interval := k.settings.Timing(); now.Sub(k.lastSubmit) < interval {
		return
	}
	k.lastSubmit, k.mode = now, thanks
	ctx, dev := k.ctx, device
	go func() {
		if err := dev.Enqueue(context.Background(), id, body); err != nil {
			ctx.Dispatch(func(app.Context) { k.mode, k.message = form, k.t("kiosk_store_failed") })
			return
		}
		dev.Sync()
	}()
}

func (k *Page) renderThanks() app.UI {
	return app.Main().Class("kiosk-screen").Body(
		app.H1().Role("status").Text(k.t("thanks_title")),
		app.P().Text(k.t("thanks_body")),
	)
}

// languages lets each visitor pick a language; the choice stays until
// the kiosk resets.
func (k *Page) languages() app.UI {
	return app.Nav().Class("languages").Aria("label", k.t("language")).Body(
		app.Range(i18n.Languages).Slice(func(i int) app.UI {
			lang := i18n.Languages[i]
			b := app.Button().Type("button").Lang(lang).Text(i18n.Name(lang)).
				OnClick(func(ctx app.Context, e app.Event) { k.setLang(lang) })
			if lang == k.lang() {
				b = b.Aria("pressed", "true") // rendered in the browser only, where go-app keeps "true"
			}
			return b
		}),
	)
}

func (k *Page) setLang(lang string) {
	s := *k.settings
	s.Lang = lang
	k.setSettings(&s)
}

// footer shows the queue and the way out to the staff screens; those
// screens have their own way back, so they show no footer.
func (k *Page) footer() app.UI {
	return app.Footer().Class("kiosk-footer").Body(
		app.Span().Class("hint").Text(i18n.Tf(k.lang(), "kiosk_pending", k.pending)),
		app.Button().ID("kiosk-exit").Type("button").Class("quiet").Text(k.t("kiosk_exit")).
			OnClick(func(ctx app.Context, e app.Event) { k.mode, k.message = pin, "" }),
	)
}
