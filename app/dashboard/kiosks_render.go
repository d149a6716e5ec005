package dashboard

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: pairing a new kiosk, then the kiosks.
func (p *kiosksPage) Render() app.UI {
	return app.Section().Class("places").Body(
		title("Kiosks"),
		app.P().Text("A kiosk is a tablet that shows one form full screen at a location. Open /kiosk on the tablet, then type the pairing code made here."),
		problemBox("kiosks-problem", p.problem),
		writeOr(p.Workspace, "kiosks-readonly", "Viewers can see the kiosks; an admin can pair or unpair them.", p.renderPair),
		p.renderCode(),
		app.H2().ID("kiosk-list-title").Text("Paired kiosks"),
		app.P().ID(statusID).Role("status").TabIndex(-1).Text(p.statusText()),
		p.renderConfirm(),
		app.If(p.kiosks.loaded && len(p.kiosks.items) > 0, p.renderTable),
	)
}

func (p *kiosksPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.kiosks.loaded:
		return "Loading the kiosks…"
	case len(p.kiosks.items) == 0:
		return "No kiosk is paired yet."
	}
	return ""
}

// renderPair is the form that makes a pairing code.
func (p *kiosksPage) renderPair() app.UI {
	if p.cat.loaded && len(p.cat.locs) == 0 {
		return app.P().ID("kiosks-no-location").Body(app.Text("A kiosk belongs to a location, and there is none yet. "),
			app.A().Href(overviewPath(p.Workspace.Slug)+"locations").Text("Create a location first"), app.Text("."))
	}
	b := app.Button().ID("create-code").Type("submit").Class("primary", "inline").Text("Make a pairing code")
	if p.creating || !p.cat.loaded {
		b = b.Disabled(true)
	}
	return app.Form().ID("new-kiosk").Class("create-form").Aria("labelledby", "new-kiosk-title").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.createCode(ctx) }).Body(
		app.H2().ID("new-kiosk-title").Text("Pair a kiosk"),
		problemBox("pair-problem", p.createMsg),
		app.Div().Class("filters").Body(
			app.Div().Body(
				app.Label().For("kiosk-location").Text("Location"),
				app.Select().ID("kiosk-location").OnChange(func(ctx app.Context, e app.Event) { p.loc = chosen(ctx) }).Body(
					app.Range(p.cat.locs).Slice(func(i int) app.UI {
						return option(p.cat.locs[i].ID, p.cat.locs[i].Name, p.loc == p.cat.locs[i].ID)
					}),
				),
			),
			app.Div().Body(
				app.Label().For("kiosk-form").Text("Form"),
				app.Select().ID("kiosk-form").OnChange(func(ctx app.Context, e app.Event) { p.form = chosen(ctx) }).
					Body(p.cat.formOptions(p.form)...),
			),
		),
		app.If(len(p.createErr) > 0, func() app.UI {
			return app.Ul().ID("pair-field-errors").Class("field-error").Body(app.Range(p.createErr).Map(func(k string) app.UI {
				return app.Li().Text(k + " " + p.createErr[k] + ".")
			}))
		}),
		field("kiosk-name", "Kiosk name (optional)", "For example: Lobby tablet.", "", feedback.MaxKioskName,
			func(v string) { p.name = v }),
		b,
	)
}

// renderCode shows the pairing code large, to be read from across a
// room, and how long it can still be used.
func (p *kiosksPage) renderCode() app.UI {
	if p.code == nil {
		return app.If(false, nil)
	}
	left := p.codeLeft()
	return app.Div().ID("pairing").Class("pairing").Aria("labelledby", "pairing-title").Body(
		app.H2().ID("pairing-title").Text("Pairing code"),
		app.If(left > 0, func() app.UI {
			return app.Div().Body(
				app.P().ID("pairing-code").Class("pairing-code").TabIndex(-1).Aria("label", "Pairing code "+spaced(p.code.Code)).Text(p.code.Code),
				app.P().ID("pairing-expiry").Class("pairing-expiry").Text("Type it on the kiosk. It expires in "+clock(left)+
					" ("+p.code.ExpiresAt.Time.Local().Format("15:04")+") and pairs one kiosk."),
			)
		}).Else(func() app.UI {
			return app.P().ID("pairing-expired").Class("pairing-expiry").Text("The code has expired. Make a new one.")
		}),
	)
}

// spaced puts a space between the characters of code, so that a screen
// reader spells it.
func spaced(code string) string {
	out := make([]rune, 0, 2*len(code))
	for i, r := range code {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, r)
	}
	return string(out)
}

// clock is d as minutes and seconds, 9:05.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	sec := strconv.Itoa(s % 60)
	if len(sec) == 1 {
		sec = "0" + sec
	}
	return strconv.Itoa(s/60) + ":" + sec
}

func (p *kiosksPage) renderTable() app.UI {
	ks := p.kiosks.items
	return app.Table().ID("kiosk-list").Class("records", "places-table").Body(
		app.Caption().Class("sr-only").Text("Paired kiosks"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Kiosk"),
			app.Th().Scope("col").Text("Status"),
			app.Th().Scope("col").Text("Queue"),
			app.Th().Scope("col").Text("App version"),
			app.Th().Scope("col").Text("Last seen"),
			writeOnly(p.Workspace, func() app.UI { return app.Th().Scope("col").Text("Action") }),
		)),
		app.TBody().Body(app.Range(ks).Slice(func(i int) app.UI { return p.renderRow(ks[i]) })),
	)
}

func (p *kiosksPage) renderRow(k feedback.Kiosk) app.UI {
	status, class := "Offline", "kiosk-offline"
	if k.Online {
		status, class = "Online", "kiosk-online"
	}
	seen := "Never"
	if k.LastSeenAt != nil {
		seen = when(k.LastSeenAt.Time, p.now)
	}
	version := k.AppVersion
	if version == "" {
		version = "Not reported"
	}
	name := k.Name
	if name == "" {
		name = "Kiosk"
	}
	return app.Tr().DataSet("kiosk", k.ID).Body(
		app.Th().Scope("row").Body(app.Text(name), app.Span().Class("hint").Text(" · "+p.cat.locationName(k.LocationID)+" · "+p.cat.formName(k.FormRef))),
		app.Td().DataSet("label", "Status").Body(app.Span().Class("kiosk-status", class).Text(status)),
		app.Td().DataSet("label", "Queue").Text(plural(k.QueueDepth, "report waiting", "reports waiting")),
		app.Td().DataSet("label", "App version").Text(version),
		app.Td().DataSet("label", "Last seen").Text(seen),
		writeOnly(p.Workspace, func() app.UI {
			return app.Td().Body(app.Button().Type("button").Class("inline", "danger").Aria("label", "Unpair "+name).Text("Unpair").
				OnClick(func(ctx app.Context, e app.Event) { p.unpairing = k.ID; focusLater(ctx, "confirm-unpair") }, app.EventScope(k.ID)))
		}),
	)
}

// renderConfirm asks to confirm an unpairing, saying what it does.
func (p *kiosksPage) renderConfirm() app.UI {
	var k *feedback.Kiosk
	for i := range p.kiosks.items {
		if p.kiosks.items[i].ID == p.unpairing {
			k = &p.kiosks.items[i]
		}
	}
	if k == nil {
		return app.If(false, nil)
	}
	kiosk := *k
	yes := disabledIf(app.Button().ID("confirm-unpair-yes").Type("button").Class("danger", "inline").Text("Unpair "+kioskName(kiosk)), p.busy).
		OnClick(func(ctx app.Context, e app.Event) { p.unpair(ctx, kiosk) }, app.EventScope(kiosk.ID))
	queued := ""
	if kiosk.QueueDepth > 0 {
		queued = " It still holds " + plural(kiosk.QueueDepth, "report", "reports") + " not sent, which will be lost."
	}
	return app.Div().ID("confirm-unpair").Class("confirm").Role("group").Aria("labelledby", "confirm-unpair-title").TabIndex(-1).Body(
		app.H2().ID("confirm-unpair-title").Text("Unpair "+kioskName(kiosk)+"?"),
		app.P().Text("Its credential is revoked at once: it can no longer send feedback, and it must be paired again with a new code."+queued),
		app.Div().Class("buttons").Body(
			yes,
			app.Button().ID("confirm-unpair-no").Type("button").Class("inline").Text("Keep it").
				OnClick(func(ctx app.Context, e app.Event) { p.unpairing = ""; focusLater(ctx, statusID) }),
		),
	)
}
