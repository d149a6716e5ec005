package kiosk

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/i18n"
)

// renderPIN asks for the exit PIN.
func (k *Page) renderPIN() app.UI {
	return app.Main().Class("kiosk-screen").Body(
		app.H1().Text(k.t("kiosk_pin_title")),
		app.Form().ID("pin-form").OnSubmit(k.checkPIN).Body(
			field("exit-pin", k.t("kiosk_pin"), "password", "off"),
			app.If(k.message != "", func() app.UI { return app.P().Class("errors").Role("alert").Text(k.message) }),
			app.Button().Type("submit").Class("primary").Text(k.t("kiosk_pin_submit")),
			app.Button().Type("button").Text(k.t("back")).OnClick(func(ctx app.Context, e app.Event) { k.toAttract(ctx) }),
		),
	)
}

func (k *Page) checkPIN(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if !k.settings.CheckPIN(inputValue("exit-pin")) {
		k.message = k.t("kiosk_pin_wrong")
		return
	}
	k.mode, k.message = admin, ""
}

// renderAdmin shows the kiosk's state to the person holding the PIN.
func (k *Page) renderAdmin() app.UI {
	s := k.settings
	return app.Main().Class("kiosk-screen").Body(
		app.H1().Text(k.t("kiosk_admin_title")),
		app.Dl().Body(
			app.Dt().Text(k.t("kiosk_name")), app.Dd().Text(s.Kiosk.Name),
			app.Dt().Text(k.t("kiosk_place")), app.Dd().Text(s.Form.LocationName),
			app.Dt().Text(k.t("kiosk_version")), app.Dd().Text(device.Version()),
			app.Dt().Text(k.t("kiosk_waiting")), app.Dd().ID("kiosk-pending").Text(k.pending),
			app.Dt().Text(k.t("kiosk_refused")), app.Dd().ID("kiosk-dead").Text(k.dead),
		),
		app.Button().ID("kiosk-sync").Type("button").Text(k.t("kiosk_sync")).OnClick(func(ctx app.Context, e app.Event) { device.Sync() }),
		app.Button().ID("kiosk-resume").Type("button").Class("primary").Text(k.t("kiosk_resume")).
			OnClick(func(ctx app.Context, e app.Event) { k.toAttract(ctx) }),
		app.Button().ID("kiosk-unpair").Type("button").Text(k.t("kiosk_unpair")).OnClick(k.unpair),
		app.If(k.message != "", func() app.UI { return app.P().Role("alert").Text(k.message) }),
	)
}

// unpair forgets the credential; never while submissions wait, since
// they could not be sent any more.
func (k *Page) unpair(ctx app.Context, e app.Event) {
	if k.pending > 0 {
		k.message = i18n.Tf(k.lang(), "kiosk_unpair_pending", k.pending)
		return
	}
	device.Save(&Settings{})
	k.setSettings(&Settings{})
	k.mode, k.message = pairing, ""
}
