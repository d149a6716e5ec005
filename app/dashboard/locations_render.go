package dashboard

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page: the form that creates a location, then the
// list.
func (p *locationsPage) Render() app.UI {
	return app.Section().Class("places").Body(
		title("Locations"),
		app.P().Text("The places where visitors leave feedback. Posters and kiosks belong to a location."),
		writeOr(p.Workspace, "locations-readonly", "Viewers can read the locations; an admin can add or change them.", p.renderCreate),
		app.H2().ID("locations-title").Text("Your locations"),
		app.P().ID(statusID).Role("status").TabIndex(-1).Text(p.statusText()),
		app.If(p.problem != "", func() app.UI {
			return app.Div().Class("errors").Role("alert").Body(
				app.P().ID("locations-problem").Text(p.problem),
				app.Button().ID("locations-retry").Type("button").Class("inline").Text("Load the locations again").
					OnClick(func(ctx app.Context, e app.Event) { p.problem = ""; p.load() }),
			)
		}),
		p.renderConfirm(),
		app.If(p.loaded && len(p.locs) > 0, p.renderTable),
	)
}

func (p *locationsPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.loaded && p.loading:
		return "Loading the locations…"
	case p.loaded && len(p.locs) == 0:
		if !canWrite(p.Workspace) {
			return "No location yet."
		}
		return "No location yet. Create the first one above."
	}
	return ""
}

// renderCreate is the form that creates a location.
func (p *locationsPage) renderCreate() app.UI {
	b := app.Button().ID("create-location").Type("submit").Class("primary", "inline").Text("Create the location")
	if p.creating {
		b = b.Disabled(true).Text("Creating…")
	}
	return app.Form().ID("new-location").Class("create-form").Aria("labelledby", "new-location-title").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.create(ctx) }).Body(
		app.H2().ID("new-location-title").Text("New location"),
		problemBox("create-problem", p.createMsg),
		field("new-location-name", "Name", "For example: Restroom, 2nd floor.", p.createErr["name"], feedback.MaxLocationName,
			func(v string) { p.newName = v }),
		b,
	)
}

func (p *locationsPage) renderTable() app.UI {
	return app.Table().ID("locations").Class("records", "places-table").Body(
		app.Caption().Class("sr-only").Text("Locations, with today's feedback and their kiosks"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Location"),
			app.Th().Scope("col").Text("Today"),
			app.Th().Scope("col").Text("Kiosks online"),
			app.Th().Scope("col").Text("Actions"),
		)),
		app.TBody().Body(app.Range(p.locs).Slice(func(i int) app.UI { return p.renderRow(p.locs[i]) })),
	)
}

// renderRow is one location: its name (or the rename form), today's
// count and average rating, its kiosks online, and its actions.
func (p *locationsPage) renderRow(l feedback.Location) app.UI {
	ks := p.kiosksAt(l.ID)
	online := 0
	for _, k := range ks {
		if k.Online {
			online++
		}
	}
	kiosks := "None paired"
	if len(ks) > 0 {
		kiosks = strconv.Itoa(online) + " of " + strconv.Itoa(len(ks))
	}
	return app.Tr().DataSet("location", l.ID).Body(
		app.Th().Scope("row").Body(p.renderName(l)),
		app.Td().DataSet("label", "Today").Text(p.todayText(l.ID)),
		app.Td().DataSet("label", "Kiosks online").Text(kiosks),
		app.Td().Class("actions").Body(p.rowActions(l)...),
	)
}

// rowActions are a location's link to its posters and, for a role that
// may change it, the buttons that rename and delete it.
func (p *locationsPage) rowActions(l feedback.Location) []app.UI {
	actions := []app.UI{app.A().Class("button", "inline").Href(postersPath(p.Workspace.Slug, l.ID)).
		Aria("label", "Posters of "+l.Name).Text("Posters")}
	if !canWrite(p.Workspace) {
		return actions
	}
	return append(actions,
		app.Button().Type("button").Class("inline").Aria("label", "Rename "+l.Name).Text("Rename").
			OnClick(func(ctx app.Context, e app.Event) {
				p.renaming, p.renameTo, p.renameErr = l.ID, l.Name, ""
				focusLater(ctx, "rename-input")
			}, app.EventScope(l.ID)),
		app.Button().Type("button").Class("inline", "danger").Aria("label", "Delete "+l.Name).Text("Delete").
			OnClick(func(ctx app.Context, e app.Event) { p.askDelete(ctx, l) }, app.EventScope(l.ID)),
	)
}

// renderName is a location's name, or the form that renames it.
func (p *locationsPage) renderName(l feedback.Location) app.UI {
	if p.renaming != l.ID {
		return app.Text(l.Name)
	}
	in := app.Input().Type("text").ID("rename-input").Value(l.Name).MaxLength(feedback.MaxLocationName).
		OnInput(func(ctx app.Context, e app.Event) { p.renameTo = ctx.JSSrc().Get("value").String() })
	if p.renameErr != "" {
		in = in.Aria("invalid", "true").Aria("describedby", "rename-error")
	}
	return app.Form().ID("rename-form").Class("rename").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.rename(ctx) }).Body(
		app.Label().For("rename-input").Text("New name of "+l.Name),
		in,
		app.If(p.renameErr != "", func() app.UI { return app.P().ID("rename-error").Class("field-error").Text(p.renameErr) }),
		app.Div().Class("buttons").Body(
			disabledIf(app.Button().ID("rename-save").Type("submit").Class("primary", "inline").Text("Save"), p.saving),
			app.Button().Type("button").Class("inline").Text("Cancel").
				OnClick(func(ctx app.Context, e app.Event) { p.renaming = ""; focusLater(ctx, statusID) }),
		),
	)
}

// todayText is a location's feedback today: how many, and the average
// of the rated ones (hygiene reports and review responses).
func (p *locationsPage) todayText(id string) string {
	if !p.today.loaded {
		return "…"
	}
	s := p.today.locs[id]
	if s == nil {
		return "None yet"
	}
	rated := feedback.RatingSummary{Count: s.Hygiene.Count + s.ReviewResponses.Count,
		RatingSum: s.Hygiene.RatingSum + s.ReviewResponses.RatingSum}
	n := rated.Count + s.SurveyResponses
	text := plural(n, "response", "responses")
	if avg, ok := rated.Average(); ok {
		text += " · average " + strconv.FormatFloat(avg, 'f', 1, 64) + " of 5"
	}
	return text
}

// renderConfirm asks to confirm a deletion, saying what it revokes.
func (p *locationsPage) renderConfirm() app.UI {
	var l *feedback.Location
	for i := range p.locs {
		if p.locs[i].ID == p.deleting {
			l = &p.locs[i]
		}
	}
	if l == nil {
		return app.If(false, nil)
	}
	loc := *l
	kiosks := len(p.kiosksAt(loc.ID))
	posters := "its posters"
	if p.posters >= 0 {
		posters = "its " + plural(p.posters, "active poster", "active posters")
	}
	del := app.Button().ID("confirm-delete-yes").Type("button").Class("danger", "inline").Text("Delete "+loc.Name).
		OnClick(func(ctx app.Context, e app.Event) { p.remove(ctx, loc) }, app.EventScope(loc.ID))
	if p.removing || p.posters < 0 {
		del = del.Disabled(true)
	}
	return app.Div().ID("confirm-delete").Class("confirm").Role("group").Aria("labelledby", "confirm-delete-title").TabIndex(-1).Body(
		app.H2().ID("confirm-delete-title").Text("Delete "+loc.Name+"?"),
		app.P().ID("confirm-delete-text").Text("Deleting it revokes "+posters+" and unpairs its "+plural(kiosks, "kiosk", "kiosks")+
			": their QR codes stop opening the form, and reports captured before are still accepted for 7 days. "+
			"The feedback it already received stays in the reports. This cannot be undone."),
		app.Div().Class("buttons").Body(
			del,
			app.Button().ID("confirm-delete-no").Type("button").Class("inline").Text("Keep it").
				OnClick(func(ctx app.Context, e app.Event) { p.deleting = ""; focusLater(ctx, statusID) }),
		),
	)
}
