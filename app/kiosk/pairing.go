package kiosk

import (
	"context"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// renderPairing asks the installer for the pairing code shown in the
// dashboard and for the exit PIN this kiosk will ask for.
func (k *Page) renderPairing() app.UI {
	return app.Main().Class("kiosk-screen").Body(
		app.H1().Text(k.t("kiosk_pair_title")),
		app.P().Text(k.t("kiosk_pair_body")),
		app.Form().ID("pair-form").OnSubmit(k.pair).Body(
			field("pair-code", k.t("kiosk_pair_code"), "text", "off"),
			field("pair-pin", k.t("kiosk_pin_new"), "password", "new-password"),
			app.If(k.message != "", func() app.UI { return app.P().Class("errors").Role("alert").Text(k.message) }),
			app.Button().Type("submit").Class("primary").Text(k.t("kiosk_pair_submit")),
		),
	)
}

// field is a labelled input whose value is read from the DOM on submit.
func field(id, label, typ, autocomplete string) app.UI {
	return app.P().Body(
		app.Label().For(id).Text(label),
		app.Input().ID(id).Type(typ).Attr("autocomplete", autocomplete).Required(true),
	)
}

// inputValue reads a field of the form that was submitted.
func inputValue(id string) string {
	el := app.Window().Get("document").Call("getElementById", id)
	if !el.Truthy() {
		return ""
	}
	return strings.TrimSpace(el.Get("value").String())
}

// pair consumes the code at the server, fetches the form, and stores the
// credential, the form and the hashed PIN on the device.
func (k *Page) pair(ctx app.Context, e app.Event) {
	e.PreventDefault()
	code, pin := inputValue("pair-code"), inputValue("pair-pin")
	if !ValidPIN(pin) {
		k.message = k.t("kiosk_pin_invalid")
		return
	}
	k.message = k.t("sending")
	ctx.Async(func() {
		s, err := pairDevice(code, pin)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				k.message = k.t("kiosk_pair_failed") + " " + feedback.ErrorMessage(err)
				return
			}
			device.Save(s)
			k.setSettings(s)
			k.toAttract(ctx)
		})
	})
}

func pairDevice(code, pin string) (*Settings, error) {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := device.Pair(c, code)
	if err != nil {
		return nil, err
	}
	kiosk, view, err := device.Config(c, p.Credential)
	if err != nil {
		return nil, err
	}
	s := &Settings{Credential: p.Credential, Kiosk: *kiosk, Form: *view, ConfigAt: time.Now()}
	s.SetPIN(pin, feedback.NewID())
	return s, nil
}
