package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// alertPage is /w/{slug}/alerts/{id}: one alert, the page its email
// links to, with its timeline and the same buttons as the list. It
// changes live when someone else acts on the alert.
type alertPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership
	ID        string

	api     *client.Client
	alert   *feedback.Alert
	locs    []feedback.Location
	loading bool
	missing bool // the workspace has no such alert
	acts    alertActs
}

// OnMount reads the alert and listens to the shell's stream.
func (p *alertPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.acts = alertActs{req: &p.requests, shell: p.Shell, api: p.api, ws: p.Workspace, statusID: "alert-status",
		changed: func(ctx app.Context, a feedback.Alert) { p.alert = &a }}
	p.Shell.listenAlerts(p)
	p.load()
}

// OnDismount stops listening and cancels the page's requests.
func (p *alertPage) OnDismount() {
	p.Shell.listenAlerts(nil)
	p.dismount()
}

// load reads the alert and the locations.
func (p *alertPage) load() {
	p.loading = true
	id := p.ID
	p.async(func(c context.Context) func(app.Context) {
		a, err := p.api.Alert(c, id)
		var locs *feedback.Page[feedback.Location]
		if err == nil {
			locs, err = p.api.Locations(c, allOf)
		}
		err = explain(err)
		notFound := hasStatus(err, 404)
		return func(ctx app.Context) {
			p.loading = false
			if notFound {
				p.missing = true
				return
			}
			if p.Shell.refused(err, "The alert could not be loaded: ", func(msg string) { p.acts.problem = msg }) {
				return
			}
			p.alert, p.locs = a, locs.Data
		}
	})
}

// alertsReset reads the alert again.
func (p *alertPage) alertsReset(ctx app.Context) { p.load() }

// alertEvent shows what someone else did to the alert. It comes from
// the shell: the page's own Dispatch renders the page.
func (p *alertPage) alertEvent(ctx app.Context, kind string, a feedback.Alert) {
	if a.ID == p.ID {
		p.ui.Dispatch(func(ctx app.Context) { p.alert = &a })
	}
}

// Render renders the page.
func (p *alertPage) Render() app.UI {
	heading := "Alert"
	if p.alert != nil {
		heading = "Alert: " + p.alert.RuleName
	}
	return app.Section().Class("alert-page").Body(
		alertsHead(p.Workspace, alertsPath+"/"+p.ID, heading),
		app.P().ID("alert-status").Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("alert-problem", p.acts.problem),
		slot(p.alert != nil, p.renderAlert),
	)
}

// statusText says what the page shows, or what the last action did.
func (p *alertPage) statusText() string {
	switch {
	case p.acts.notice != "":
		return p.acts.notice
	case p.missing:
		return "This workspace has no such alert. It may belong to another workspace: open the link from the workspace it names."
	case p.alert == nil && p.loading:
		return "Loading the alert…"
	}
	return ""
}

// renderAlert is the alert, its timeline and its buttons.
func (p *alertPage) renderAlert() app.UI {
	a := *p.alert
	return app.Div().ID("alert-"+a.ID).Class("card", "alert-card", "alert-"+a.State).DataSet("state", a.State).Body(
		app.P().Class("alert-summary").Text(a.Summary),
		app.P().Body(app.Text(alertLocation(p.locs, a)+" · "), alertState(a)),
		app.H2().Text("Timeline"),
		app.Ol().ID("alert-timeline").Class("timeline").Body(p.timeline(a)...),
		p.acts.render(a),
	)
}

// timeline is what happened to a, in order.
func (p *alertPage) timeline(a feedback.Alert) []app.UI {
	step := func(what string) app.UI { return app.Li().Text(what) }
	out := []app.UI{step("Triggered " + agoText(a.TriggeredAt.Time) + ".")}
	if a.AcknowledgedAt != nil {
		out = append(out, step("Acknowledged by "+who(a.AcknowledgedBy)+", "+agoText(a.AcknowledgedAt.Time)+"."))
	}
	if a.ResolvedAt != nil {
		what := "Resolved by " + who(a.ResolvedBy) + ", " + agoText(a.ResolvedAt.Time) + "."
		if a.ResolutionNote != "" {
			what += " Note: " + a.ResolutionNote
		}
		out = append(out, step(what))
	}
	return out
}

// who names who acted, for people.
func who(by *string) string {
	if by == nil || *by == "" {
		return "someone"
	}
	return *by
}
