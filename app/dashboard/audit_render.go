package dashboard

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: the filters, the entries and the paging.
func (p *auditPage) Render() app.UI {
	if p.denied {
		return app.Section().Class("places").Body(
			title("Audit log"),
			app.P().ID(statusID).Role("status").TabIndex(-1).Text("Only a platform owner can read the audit log."),
		)
	}
	return app.Section().Class("places").Body(
		title("Audit log"),
		app.P().Text("The installation's security events, in every workspace, newest first: sign-ins, sessions, API tokens, members and webhooks."),
		p.renderFilters(),
		app.H2().ID("audit-title").TabIndex(-1).Text("Events"),
		app.P().ID(statusID).Role("status").Text(p.statusText()),
		app.If(p.problem != "", func() app.UI {
			return app.Div().Class("errors").Role("alert").Body(
				app.P().ID("audit-problem").TabIndex(-1).Text(p.problem),
				app.Button().ID("audit-retry").Type("button").Class("inline").Text("Load the audit log again").
					OnClick(func(ctx app.Context, e app.Event) { p.problem = ""; p.load() }),
			)
		}),
		app.If(p.loaded && len(p.entries) > 0, p.renderTable),
		app.If(p.loaded && p.meta.Pages > 1, p.renderPaging),
	)
}

func (p *auditPage) statusText() string {
	switch {
	case !p.loaded && p.loading:
		return "Loading the audit log…"
	case p.loaded && p.meta.Total == 0:
		return "No event in these days."
	case p.loaded && len(p.entries) == 0:
		return "This page is past the last one."
	case p.loaded:
		first := (p.meta.Page-1)*p.meta.PerPage + 1
		return "Events " + strconv.Itoa(first) + " to " + strconv.Itoa(first+len(p.entries)-1) + " of " + strconv.Itoa(p.meta.Total) + "."
	}
	return ""
}

// renderFilters is the form that chooses the days and the page size.
func (p *auditPage) renderFilters() app.UI {
	sizes := make([]app.UI, 0, len(perPageChoices))
	for _, n := range perPageChoices {
		sizes = append(sizes, option(strconv.Itoa(n), strconv.Itoa(n), n == p.perPage))
	}
	return app.Form().ID("audit-filters").Class("create-form", "filters", "audit-filters").Aria("label", "Which events").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.page = 1; p.load() }).Body(
		app.Div().Class("field").Body(
			app.Label().For("audit-from").Text("From (day included)"),
			app.Input().Type("date").ID("audit-from").Value(p.from).
				OnChange(func(ctx app.Context, e app.Event) { p.from = ctx.JSSrc().Get("value").String() }),
		),
		app.Div().Class("field").Body(
			app.Label().For("audit-to").Text("Until (day included)"),
			app.Input().Type("date").ID("audit-to").Value(p.to).
				OnChange(func(ctx app.Context, e app.Event) { p.to = ctx.JSSrc().Get("value").String() }),
		),
		app.Div().Class("field").Body(
			app.Label().For("audit-per-page").Text("Events per page"),
			app.Select().ID("audit-per-page").OnChange(func(ctx app.Context, e app.Event) { p.perPage = atoi(chosen(ctx)) }).Body(sizes...),
		),
		disabledIf(app.Button().ID("audit-apply").Type("submit").Class("primary", "inline").Text("Show the events"), p.loading),
	)
}

func (p *auditPage) renderTable() app.UI {
	return app.Table().ID("audit").Class("records", "places-table").Body(
		app.Caption().Class("sr-only").Text("Audit log entries, newest first"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("When"),
			app.Th().Scope("col").Text("Who"),
			app.Th().Scope("col").Text("What"),
			app.Th().Scope("col").Text("Concerning"),
		)),
		app.TBody().Body(app.Range(p.entries).Slice(func(i int) app.UI { return p.renderRow(p.entries[i]) })),
	)
}

// renderRow is one entry: when, who, what and what it concerned.
func (p *auditPage) renderRow(e feedback.AuditEntry) app.UI {
	return app.Tr().DataSet("action", e.Action).Body(
		app.Th().Scope("row").Text(agoText(e.CreatedAt.Time)),
		app.Td().DataSet("label", "Who").Text(actorName(e.Actor)),
		app.Td().DataSet("label", "What").Class("audit-what").Text(p.auditAction(e)),
		app.Td().DataSet("label", "Concerning").Text(p.targetName(e.Target)+" · from "+e.IP),
	)
}

// actorName is who acted, for people.
func actorName(actor string) string {
	switch {
	case actor == "cli":
		return "The command line"
	case len(actor) > 6 && actor[:6] == "token:":
		return "The API token " + strconv.Quote(actor[6:])
	}
	return actor
}

// renderPaging moves to the newer and the older events; the first page
// has no newer ones, the last no older ones.
func (p *auditPage) renderPaging() app.UI {
	return app.Nav().ID("audit-paging").Class("buttons", "paging").Aria("label", "Pages of the audit log").Body(
		app.If(p.page > 1, func() app.UI {
			return disabledIf(app.Button().ID("audit-newer").Type("button").Class("inline").Text("Newer events"), p.loading).
				OnClick(func(ctx app.Context, e app.Event) { p.goTo(ctx, p.page-1) })
		}),
		app.Span().Text("Page "+strconv.Itoa(p.meta.Page)+" of "+strconv.Itoa(p.meta.Pages)),
		app.If(p.page < p.meta.Pages, func() app.UI {
			return disabledIf(app.Button().ID("audit-older").Type("button").Class("inline").Text("Older events"), p.loading).
				OnClick(func(ctx app.Context, e app.Event) { p.goTo(ctx, p.page+1) })
		}),
	)
}
