package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: the unresolved alerts, the choices of this
// device, the history, then each location's response times.
func (p *alertsPage) Render() app.UI {
	return app.Section().Class("alerts-page").Body(
		alertsHead(p.Workspace, alertsPath, "Alerts"),
		app.P().Text("Alerts are raised by the rules of this workspace. Acknowledge one to tell the others that you are on it; resolve it once it is dealt with."),
		app.P().ID("alerts-status").Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("alerts-problem", p.acts.problem),
		app.Section().Aria("labelledby", "active-title").Body(
			app.H2().ID("active-title").Text("Open and acknowledged"),
			slot(p.loaded && len(p.active) > 0, p.renderActive),
			slot(p.loaded && len(p.active) == 0, func() app.UI { return app.P().ID("active-none").Text("None right now.") }),
		),
		p.renderPrefs(),
		p.renderHistory(),
		p.renderTimes(),
	)
}

// statusText says what the last action did, or what the list shows.
func (p *alertsPage) statusText() string {
	switch {
	case p.acts.notice != "":
		return p.acts.notice
	case !p.loaded && p.loading:
		return "Loading the alerts…"
	case p.loaded && len(p.active) == 0:
		return "No alert is open: all is well."
	case p.loaded:
		return plural(len(p.active), "alert is", "alerts are") + " open or acknowledged."
	}
	return ""
}

// alertsHead is the heading of the alerts pages and the links between
// the alerts and their rules.
func alertsHead(ws *feedback.Membership, current, heading string) app.UI {
	base := overviewPath(ws.Slug)
	link := func(path, text string) app.UI {
		a := app.A().Href(base + path).Text(text)
		if path == current {
			a = a.Aria("current", "page")
		}
		return app.Li().Body(a)
	}
	return app.Div().Body(
		title(heading),
		app.Nav().Class("subnav").Aria("label", "Alerts").Body(app.Ul().Body(
			link(alertsPath, "Alerts"),
			link(alertRulesPath, "Rules"),
		)),
	)
}

// renderActive is the unresolved alerts, newest first.
func (p *alertsPage) renderActive() app.UI {
	items := p.active
	return app.Ul().ID("active-alerts").Class("cards", "alerts").Body(
		app.Range(items).Slice(func(i int) app.UI { return p.renderAlert(items[i]) }),
	)
}

// renderAlert is one unresolved alert as a card.
func (p *alertsPage) renderAlert(a feedback.Alert) app.UI {
	return app.Li().ID("alert-"+a.ID).Class("card", "alert-card", "alert-"+a.State).DataSet("state", a.State).Body(
		app.H3().Body(app.A().Href(alertPath(p.Workspace.Slug, a.ID)).Text(a.RuleName)),
		app.P().Class("alert-summary").Text(a.Summary),
		app.P().Body(app.Text(p.locationName(a)+" · triggered "+agoText(a.TriggeredAt.Time)+" · "), alertState(a)),
		app.If(a.AcknowledgedAt != nil && a.AcknowledgedBy != nil, func() app.UI {
			return app.P().Class("hint").Text("Acknowledged by " + *a.AcknowledgedBy + ", " + agoText(a.AcknowledgedAt.Time) + ".")
		}),
		p.acts.render(a),
	)
}

// renderPrefs are the sound and the browser notifications of this
// device, both off until turned on.
func (p *alertsPage) renderPrefs() app.UI {
	box := func(id, label string, on bool, set func(ctx app.Context, on bool)) app.UI {
		in := app.Input().ID(id).Type("checkbox").
			OnChange(func(ctx app.Context, e app.Event) { set(ctx, ctx.JSSrc().Get("checked").Bool()) })
		if on {
			in = in.Checked(true)
		}
		return app.Div().Class("check").Body(in, app.Label().For(id).Text(label))
	}
	return app.FieldSet().Class("alert-prefs").Body(
		app.Legend().Text("When an alert is raised, on this device"),
		box("alert-sound", "Play a sound", p.prefs.sound, p.setSound),
		box("alert-notify", "Show browser notifications", p.prefs.notices, p.setNotices),
		app.P().ID("prefs-status").Role("status").Class("hint").Text(p.prefMsg),
	)
}
