package dashboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The history of the alerts page: every alert of the filters (resolved
// ones at first), a page at a time.

// historyPerPage is the number of alerts on a page of the history.
const historyPerPage = 20

// alertFilter narrows the history; "" is any.
type alertFilter struct {
	state, location, rule string
}

// alertHistory is one page of the history.
type alertHistory struct {
	filter  alertFilter
	page    int
	list    *feedback.Page[feedback.Alert]
	loading bool
	gen     int // counts the reads: an answer to an older one is dropped
	problem string
}

// has reports whether the page shows alert id.
func (h *alertHistory) has(id string) bool {
	if h.list == nil {
		return false
	}
	for _, a := range h.list.Data {
		if a.ID == id {
			return true
		}
	}
	return false
}

// loadHistory reads the history's page.
func (p *alertsPage) loadHistory() {
	h := &p.history
	h.gen++
	gen, f := h.gen, h.filter
	params := feedback.ListParams{Page: h.page, PerPage: historyPerPage, LocationID: f.location}
	h.loading = true
	p.async(func(c context.Context) func(app.Context) {
		list, err := p.api.Alerts(c, params, feedback.AlertFilter{State: f.state, RuleID: f.rule})
		err = explain(err)
		return func(ctx app.Context) {
			if h.gen != gen {
				return
			}
			h.loading = false
			if p.Shell.refused(err, "The history could not be loaded: ", func(msg string) { h.problem = msg }) {
				return
			}
			h.list, h.problem = list, ""
		}
	})
}

// refilter changes a filter and reads the first page.
func (p *alertsPage) refilter(set func(f *alertFilter)) {
	set(&p.history.filter)
	p.history.page = 1
	p.loadHistory()
}

// turn reads page n of the history.
func (p *alertsPage) turn(ctx app.Context, n int) {
	p.history.page = n
	p.loadHistory()
	focusLater(ctx, "history-status")
}

// renderHistory is the filters, the status, the table and its pages.
func (p *alertsPage) renderHistory() app.UI {
	h := &p.history
	return app.Section().Class("alert-history").Aria("labelledby", "history-title").Body(
		app.H2().ID("history-title").Text("History"),
		p.renderFilters(),
		app.P().ID("history-status").Role("status").TabIndex(-1).Text(p.historyText()),
		problemBox("history-problem", h.problem),
		slot(h.list != nil && len(h.list.Data) > 0, p.renderHistoryTable),
		slot(h.list != nil && h.list.Meta.Pages > 1, p.renderHistoryPager),
	)
}

// historyText says what the history shows.
func (p *alertsPage) historyText() string {
	h := &p.history
	switch {
	case h.list == nil && h.loading:
		return "Loading the history…"
	case h.list == nil:
		return ""
	case h.list.Meta.Total == 0:
		return "No alert matches these filters."
	}
	return pageRange("Alerts", h.list.Meta, len(h.list.Data)) + "."
}

// renderFilters are the state, location and rule of the history.
func (p *alertsPage) renderFilters() app.UI {
	f := p.history.filter
	states := []app.UI{option("", "Any state", f.state == "")}
	for _, s := range []string{feedback.AlertOpen, feedback.AlertAcknowledged, feedback.AlertResolved} {
		states = append(states, option(s, stateNames[s], f.state == s))
	}
	locs := []app.UI{option("", "All locations", f.location == "")}
	for _, l := range p.locs {
		locs = append(locs, option(l.ID, l.Name, f.location == l.ID))
	}
	rules := []app.UI{option("", "All rules", f.rule == "")}
	for _, r := range p.rules {
		rules = append(rules, option(r.ID, r.Name, f.rule == r.ID))
	}
	return app.Div().Class("filters").Role("group").Aria("label", "Filters of the history").Body(
		p.choice("history-state", "State", states, func(f *alertFilter, v string) { f.state = v }),
		p.choice("history-location", "Location", locs, func(f *alertFilter, v string) { f.location = v }),
		p.choice("history-rule", "Rule", rules, func(f *alertFilter, v string) { f.rule = v }),
	)
}

// choice is one select of the filters.
func (p *alertsPage) choice(id, label string, opts []app.UI, set func(f *alertFilter, v string)) app.UI {
	return app.Div().Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).Body(opts...).OnChange(func(ctx app.Context, e app.Event) {
			v := ctx.JSSrc().Get("value").String()
			if v == anyValue {
				v = ""
			}
			p.refilter(func(f *alertFilter) { set(f, v) })
		}),
	)
}

// renderHistoryTable is the page of the history as a table.
func (p *alertsPage) renderHistoryTable() app.UI {
	items := p.history.list.Data
	slug := p.Workspace.Slug
	return app.Table().ID("alert-history").Class("records", "places-table").Body(
		app.Caption().Class("sr-only").Text("Alerts of the history"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Alert"), app.Th().Scope("col").Text("Location"),
			app.Th().Scope("col").Text("Triggered"), app.Th().Scope("col").Text("State"),
		)),
		app.TBody().Body(app.Range(items).Slice(func(i int) app.UI {
			a := items[i]
			return app.Tr().ID("history-"+a.ID).Body(
				app.Td().DataSet("label", "Alert").Body(
					app.A().Href(alertPath(slug, a.ID)).Text(a.RuleName), app.Div().Class("hint").Text(a.Summary)),
				app.Td().DataSet("label", "Location").Text(p.locationName(a)),
				app.Td().DataSet("label", "Triggered").Text(agoText(a.TriggeredAt.Time)),
				app.Td().DataSet("label", "State").Body(alertState(a)),
			)
		})),
	)
}

// renderHistoryPager turns the pages of the history.
func (p *alertsPage) renderHistoryPager() app.UI {
	n, m := p.history.page, p.history.list.Meta
	busy := p.history.loading
	return app.Nav().Class("buttons", "pager").Aria("label", "Pages of the history").Body(
		disabledIf(app.Button().ID("history-newer").Type("button").Class("inline").Text("Newer"), n <= 1 || busy).
			OnClick(func(ctx app.Context, e app.Event) { p.turn(ctx, n-1) }, app.EventScope(n)),
		disabledIf(app.Button().ID("history-older").Type("button").Class("inline").Text("Older"), n >= m.Pages || busy).
			OnClick(func(ctx app.Context, e app.Event) { p.turn(ctx, n+1) }, app.EventScope(n)),
	)
}
