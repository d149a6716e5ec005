package dashboard

import (
	"context"
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// alertsPage is /w/{slug}/alerts: the unresolved alerts first, newest
// first, each with its buttons, then the history with its filters and
// pages. The shell's stream hands it every alert event: a new alert
// appears at the top, and an alert acknowledged or resolved elsewhere
// changes in place.
type alertsPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	locs    []feedback.Location
	rules   []feedback.AlertRule
	active  []feedback.Alert // open and acknowledged, newest first
	loaded  bool
	loading bool
	history alertHistory
	acts    alertActs
	prefs   alertPrefs
	prefMsg string                        // what the last change of a choice did
	times   []feedback.AlertResponseTimes // per location, the last 30 days
}

// OnMount reads the alerts and listens to the shell's stream.
func (p *alertsPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.acts = alertActs{req: &p.requests, shell: p.Shell, api: p.api, ws: p.Workspace, statusID: "alerts-status", changed: p.changed}
	p.history = alertHistory{filter: alertFilter{state: feedback.AlertResolved}, page: 1}
	p.prefs = readAlertPrefs(ctx)
	p.Shell.listenAlerts(p)
	p.load()
	p.loadHistory()
	p.loadTimes()
}

// OnDismount stops listening and cancels the page's requests.
func (p *alertsPage) OnDismount() {
	p.Shell.listenAlerts(nil)
	p.dismount()
}

// load reads the unresolved alerts, the locations and the rules.
func (p *alertsPage) load() {
	p.loading = true
	p.async(func(c context.Context) func(app.Context) {
		active, err := p.api.Alerts(c, allOf, feedback.AlertFilter{State: activeAlerts})
		var locs *feedback.Page[feedback.Location]
		var rules *feedback.Page[feedback.AlertRule]
		if err == nil {
			locs, err = p.api.Locations(c, allOf)
		}
		if err == nil {
			rules, err = p.api.AlertRules(c, allOf)
		}
		err = explain(err)
		return func(ctx app.Context) {
			p.loading = false
			if p.Shell.refused(err, "The alerts could not be loaded: ", func(msg string) { p.acts.problem = msg }) {
				return
			}
			p.active, p.locs, p.rules, p.loaded = active.Data, locs.Data, rules.Data, true
		}
	})
}

// alertsReset reads the alerts again: the stream started, or could not
// resume.
func (p *alertsPage) alertsReset(ctx app.Context) {
	p.load()
	p.loadHistory()
	p.loadTimes()
}

// alertEvent applies an alert event: a new alert goes to the top, a
// changed one changes in place, a resolved one moves to the history.
// It comes from the shell: the page's own Dispatch renders the page.
func (p *alertsPage) alertEvent(ctx app.Context, kind string, a feedback.Alert) {
	p.ui.Dispatch(func(ctx app.Context) { p.changed(ctx, a) })
}

// changed puts a where its state belongs.
func (p *alertsPage) changed(ctx app.Context, a feedback.Alert) {
	i := slices.IndexFunc(p.active, func(b feedback.Alert) bool { return b.ID == a.ID })
	switch {
	case a.State == feedback.AlertResolved && i >= 0:
		p.active = slices.Delete(p.active, i, i+1)
	case a.State == feedback.AlertResolved:
	case i >= 0:
		p.active[i] = a
	default:
		p.active = insertAlert(p.active, a)
	}
	if p.history.has(a.ID) || a.State == feedback.AlertResolved {
		p.loadHistory()
	}
	p.loadTimes()
	if a.LocationID != nil && !slices.ContainsFunc(p.locs, func(l feedback.Location) bool { return l.ID == *a.LocationID }) {
		p.loadLocations() // a location made since the page loaded
	}
}

// loadLocations reads the locations again.
func (p *alertsPage) loadLocations() {
	p.async(func(c context.Context) func(app.Context) {
		locs, err := p.api.Locations(c, allOf)
		return func(ctx app.Context) {
			if err == nil {
				p.locs = locs.Data
			}
		}
	})
}

// insertAlert puts a into list, newest first.
func insertAlert(list []feedback.Alert, a feedback.Alert) []feedback.Alert {
	i := 0
	for i < len(list) && list[i].TriggeredAt.After(a.TriggeredAt.Time) {
		i++
	}
	return slices.Insert(list, i, a)
}

// locationName names the location of a, for people.
func (p *alertsPage) locationName(a feedback.Alert) string {
	return alertLocation(p.locs, a)
}

// alertLocation names the location of a among locs.
func alertLocation(locs []feedback.Location, a feedback.Alert) string {
	if a.LocationID == nil {
		return "Every location"
	}
	c := catalog{locs: locs}
	return c.locationName(*a.LocationID)
}
