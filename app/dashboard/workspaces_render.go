package dashboard

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Render renders the page.
func (p *workspacesPage) Render() app.UI {
	if !p.Owner {
		return app.Section().Body(title("Workspaces"),
			app.P().ID("workspaces-status").Text("Only a platform owner can see and create the workspaces of this installation."))
	}
	return app.Section().Class("places").Body(
		title("Workspaces"),
		app.P().Text("Each workspace has its own locations, forms, feedback, people and integrations. As a platform owner you open every one."),
		p.renderCreate(),
		app.H2().ID("workspaces-title").Text("All workspaces"),
		app.P().ID("workspaces-status").Role("status").TabIndex(-1).Text(p.statusText()),
		problemBox("workspaces-problem", p.problem),
		app.If(p.loaded && len(p.items) > 0, p.renderTable),
	)
}

func (p *workspacesPage) statusText() string {
	switch {
	case p.notice != "":
		return p.notice
	case !p.loaded && p.loading:
		return "Loading the workspaces…"
	case p.loaded && len(p.items) == 0:
		return "No workspace yet. Create the first one above."
	}
	return ""
}

// renderCreate is the form that creates a workspace.
func (p *workspacesPage) renderCreate() app.UI {
	b := app.Button().ID("create-workspace").Type("submit").Class("primary", "inline").Text("Create the workspace")
	if p.creating {
		b = b.Disabled(true).Text("Creating…")
	}
	return app.Form().ID("new-workspace").Class("create-form").Aria("labelledby", "new-workspace-title").OnSubmit(p.create).Body(
		app.H2().ID("new-workspace-title").Text("New workspace"),
		problemBox("create-problem", p.createMsg),
		field("new-workspace-name", "Name", "For example: Acme Stations.", p.createErr["name"], feedback.MaxWorkspaceName,
			func(v string) { p.name = v }),
		field("new-workspace-slug", "Slug",
			"Optional: its address, /w/slug/, in lower-case letters, digits and hyphens. Left empty, it is made from the name.",
			p.createErr["slug"], feedback.MaxSlug, func(v string) { p.slug = v }),
		b,
	)
}

func (p *workspacesPage) renderTable() app.UI {
	items := p.items
	return app.Table().ID("workspaces").Class("records").Body(
		app.Caption().Class("sr-only").Text("Workspaces"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Name"),
			app.Th().Scope("col").Text("Address"),
			app.Th().Scope("col").Text("Created"),
		)),
		app.TBody().Body(app.Range(items).Slice(func(i int) app.UI {
			w := items[i]
			return app.Tr().DataSet("workspace", w.Slug).Body(
				app.Th().Scope("row").Text(w.Name),
				app.Td().DataSet("label", "Address").Body(
					app.A().Href(overviewPath(w.Slug)).Aria("label", "Open "+w.Name).Class("mono").Text(overviewPath(w.Slug))),
				app.Td().DataSet("label", "Created").Body(timeOf(w.CreatedAt.Time)),
			)
		})),
	)
}
